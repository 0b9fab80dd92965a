/* Return codes shared by every layer and every component (C ABI). */
#ifndef TESSERA_MCA_CONSTANTS_H
#define TESSERA_MCA_CONSTANTS_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TESSERA_SUCCESS = 0,
    TESSERA_ERROR = -1,
    TESSERA_ERR_OUT_OF_RESOURCE = -2,
    TESSERA_ERR_BAD_PARAM = -3,
    TESSERA_ERR_NOT_FOUND = -4,
    /* A component's query uses this to say "not on this machine / not now". */
    TESSERA_ERR_NOT_AVAILABLE = -5,
    TESSERA_ERR_NOT_SUPPORTED = -6,
    TESSERA_ERR_UNREACH = -7,
    TESSERA_ERR_VERSION = -8,
    TESSERA_ERR_EXISTS = -9,
    TESSERA_ERR_TIMEOUT = -10,
    TESSERA_ERR_IO = -11
};

/* Text for a TESSERA_* code; never NULL. */
const char *tessera_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
