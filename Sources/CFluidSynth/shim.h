#ifndef MIDIVIZ_CFLUIDSYNTH_SHIM_H
#define MIDIVIZ_CFLUIDSYNTH_SHIM_H
#include <fluidsynth.h>
#endif
