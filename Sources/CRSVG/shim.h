#ifndef MIDIVIZ_CRSVG_SHIM_H
#define MIDIVIZ_CRSVG_SHIM_H
#include <librsvg/rsvg.h>
#include <cairo.h>
#endif
