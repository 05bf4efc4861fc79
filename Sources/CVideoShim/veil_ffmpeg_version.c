// The loaded FFmpeg's versions (declared in veil_video.h).
#include "veil_av.h"
#include "veil_video.h"

const char *veil_ffmpeg_version(void) { return FF->av_version_info(); }
unsigned veil_avformat_version(void) { return FF->avformat_version(); }
unsigned veil_avcodec_version(void) { return FF->avcodec_version(); }
