/*
 * What the native translator component (components/translator/native) asks of libmpi: the native
 * engine's functions, behind their argument checks, in a dispatch table given as an array (the layout
 * of translator.h's fill). No generated header needed, so the component builds as a DSO as well.
 */
#ifndef TESSERA_OMPI_RUNTIME_NATIVE_TRANSLATOR_H
#define TESSERA_OMPI_RUNTIME_NATIVE_TRANSLATOR_H

#include <stddef.h>

#include "frameworks/translator/translator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout the native engine fills (TESSERA_MPI_LAYOUT of this libmpi). */
const char *tessera_ompi_native_layout(void);

/*
 * Sets every entry of table[0 .. entries-1] that the native engine implements: the generated checked
 * wrapper when the function has argument checks, else the implementation. *filled (may be NULL)
 * receives how many entries were set. TESSERA_ERR_VERSION when entries is not this libmpi's count.
 */
int tessera_ompi_native_fill(mca_translator_base_fn_t *table, size_t entries, size_t *filled);

#ifdef __cplusplus
}
#endif

#endif
