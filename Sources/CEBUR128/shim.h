#ifndef MIDIVIZ_CEBUR128_SHIM_H
#define MIDIVIZ_CEBUR128_SHIM_H
#include <ebur128.h>
#endif
