#ifndef MIDIVIZ_CSMF_SHIM_H
#define MIDIVIZ_CSMF_SHIM_H
#include <glib.h>
#include <smf.h>
#endif
