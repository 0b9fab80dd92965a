/* translator base: the per-thread depth that reentry.h reads (one definition, in libmpi). */
#include "frameworks/translator/base/reentry.h"

extern "C" {
__thread int tessera_translator_depth __attribute__((tls_model("initial-exec"))) = 0;
}
