#include "mca/constants.h"

extern "C" const char *tessera_strerror(int code)
{
    switch (code) {
    case TESSERA_SUCCESS: return "success";
    case TESSERA_ERROR: return "error";
    case TESSERA_ERR_OUT_OF_RESOURCE: return "out of resources";
    case TESSERA_ERR_BAD_PARAM: return "bad parameter";
    case TESSERA_ERR_NOT_FOUND: return "not found";
    case TESSERA_ERR_NOT_AVAILABLE: return "not available";
    case TESSERA_ERR_NOT_SUPPORTED: return "not supported";
    case TESSERA_ERR_UNREACH: return "unreachable";
    case TESSERA_ERR_VERSION: return "version mismatch";
    case TESSERA_ERR_EXISTS: return "already exists";
    case TESSERA_ERR_TIMEOUT: return "timed out";
    case TESSERA_ERR_IO: return "input/output error";
    default: return "unknown error code";
    }
}
