#ifndef MIDIVIZ_CPNG_SHIM_H
#define MIDIVIZ_CPNG_SHIM_H
#include <png.h>
#endif
