// FFmpeg's libraries opened on first use, and the table of the functions the
// shim calls (veil_av.h says why).
#include "veil_av.h"
#include "veil_video.h"

#include <dlfcn.h>
#include <pthread.h>

struct veil_av_table veil_av;
atomic_int veil_av_loaded;

/* What could not be found: a library's file name or a function's name. */
static const char *missing = "";
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The libraries, each needing the ones before it; the major versions are the
   headers' (the ABI the shim was compiled against). */
static const char *const libraries[] = {
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
    "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libavdevice.so." AV_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR),
};
#define LIBRARY_COUNT (sizeof libraries / sizeof libraries[0])

static void *find(void *const handles[], const char *name) {
    for (size_t i = 0; i < LIBRARY_COUNT; i++) {
        void *symbol = dlsym(handles[i], name);
        if (symbol) return symbol;
    }
    return NULL;
}

static void load(void) {
    void *handles[LIBRARY_COUNT];
    for (size_t i = 0; i < LIBRARY_COUNT; i++) {
        if (!(handles[i] = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL))) {
            missing = libraries[i];
            return;
        }
    }
#define VEIL_AV_FIND(name) \
    if (!(veil_av.name = (__typeof__(&name))find(handles, #name))) { missing = #name; return; }
    VEIL_AV_FUNCTIONS(VEIL_AV_FIND)
#undef VEIL_AV_FIND
    /* Devices (v4l2) open as inputs by name: registered once, here. */
    veil_av.avdevice_register_all();
    atomic_store_explicit(&veil_av_loaded, 1, memory_order_release);
}

int veil_av_load(void) {
    pthread_once(&once, load);
    return atomic_load_explicit(&veil_av_loaded, memory_order_acquire);
}

int veil_video_available(void) { return veil_av_load(); }
const char *veil_video_missing(void) { return missing; }
