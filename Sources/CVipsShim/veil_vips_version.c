// The loaded libvips' version (declared in veil_vips.h).
#include "veil_vips.h"

#include <vips/vips.h>

const char *veil_vips_version(void) { return vips_version_string(); }
