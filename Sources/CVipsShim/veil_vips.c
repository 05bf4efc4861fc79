/* dladdr */
#define _GNU_SOURCE
#include "veil_vips.h"

#include <dlfcn.h>
#include <gmodule.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

static void veil_quiet_log(const gchar *domain, GLogLevelFlags level,
                           const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/* The loadable modules of libvips that read and write Veil's formats: HEIF
   and AVIF (libheif), and ImageMagick's, for BMP. libvips loads every module
   in its folder at start unless VIPSHOME names another prefix; Debian's also
   hold PDF (poppler), whole-slide images (OpenSlide) and JPEG XL, which are
   not Veil's formats (a photo tool given a PDF is given the wrong file), and
   loading them cost 18 of the 27 ms the modules took, in a ~0.25 s one-photo
   run. Loaded by name from libvips' own folder (where the library is); a
   VIPSHOME the user set is left alone, and libvips then loads what it finds. */
static const char *const veil_vips_modules[] = {"vips-heif.so", "vips-magick.so"};

static void veil_vips_load_modules(void) {
    /* GModule comes with libvips (its dependency), not among its pkg-config
       libraries: found in the process rather than linked. */
    typedef GModule *(*Open)(const gchar *, GModuleFlags);
    Open open = (Open)dlsym(RTLD_DEFAULT, "g_module_open");
    Dl_info info;
    if (!open || !dladdr((void *)vips_init, &info) || !info.dli_fname)
        return;
    char *dir = g_path_get_dirname(info.dli_fname);
    for (size_t i = 0; i < sizeof veil_vips_modules / sizeof *veil_vips_modules; i++) {
        char *path = g_strdup_printf("%s/vips-modules-%d.%d/%s", dir, vips_version(0), vips_version(1), veil_vips_modules[i]);
        /* The module registers its operations on open and makes itself resident. */
        if (g_file_test(path, G_FILE_TEST_EXISTS))
            (void)open(path, G_MODULE_BIND_LAZY);
        g_free(path);
    }
    g_free(dir);
}

int veil_vips_init(int threads) {
    /* The value stays in the environment (libvips sets VIPSHOME itself when
       it is unset), so a veil started by this one knows it as Veil's own. */
    static const char marker[] = "/nonexistent/veil: modules loaded by name";
    const char *given = getenv("VIPSHOME");
    int own = given == NULL || strcmp(given, marker) == 0;
    if (own)
        setenv("VIPSHOME", marker, 1);
    if (VIPS_INIT("veil") != 0)
        return -1;
    if (own)
        veil_vips_load_modules();
    /* Damaged inputs are reported as errors; libvips' own warnings about
       them would only repeat that on stderr. */
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, veil_quiet_log, NULL);
    if (threads > 0)
        vips_concurrency_set(threads);
    /* Batches must not grow memory: no operation cache. */
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_leak_set(FALSE);
    return 0;
}

const char *veil_vips_error(void) { return vips_error_buffer(); }
void veil_vips_error_clear(void) { vips_error_clear(); }
void veil_vips_unref(VipsImage *image) {
    if (image)
        g_object_unref(image);
}

VipsImage *veil_vips_load_file(const char *path, int sequential) {
    return vips_image_new_from_file(
        path, "access",
        sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM, "fail", TRUE,
        NULL);
}

VipsImage *veil_vips_load_buffer(const void *data, size_t length, int sequential) {
    return vips_image_new_from_buffer(
        data, length, "", "access",
        sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM, "fail", TRUE,
        NULL);
}

VipsImage *veil_vips_from_memory(const void *data, size_t length, int width,
                                 int height, int bands, int is_float) {
    return vips_image_new_from_memory_copy(
        data, length, width, height, bands,
        is_float ? VIPS_FORMAT_FLOAT : VIPS_FORMAT_UCHAR);
}

const char *veil_vips_loader(VipsImage *image) {
    const char *name = NULL;
    if (vips_image_get_typeof(image, VIPS_META_LOADER) &&
        vips_image_get_string(image, VIPS_META_LOADER, &name) == 0)
        return name;
    return "";
}

int veil_vips_width(VipsImage *image) { return vips_image_get_width(image); }
int veil_vips_height(VipsImage *image) { return vips_image_get_height(image); }
int veil_vips_bands(VipsImage *image) { return vips_image_get_bands(image); }
int veil_vips_is_uchar(VipsImage *image) {
    return vips_image_get_format(image) == VIPS_FORMAT_UCHAR;
}
int veil_vips_has_alpha(VipsImage *image) { return vips_image_hasalpha(image); }
int veil_vips_is_srgb(VipsImage *image) {
    return vips_image_guess_interpretation(image) == VIPS_INTERPRETATION_sRGB;
}
int veil_vips_orientation(VipsImage *image) {
    return vips_image_get_orientation(image);
}
int veil_vips_set_int(VipsImage *image, const char *name, int value) {
    vips_image_set_int(image, name, value);
    return 0;
}

int veil_vips_copy_memory(VipsImage *in, VipsImage **out) {
    VipsImage *m = vips_image_copy_memory(in);
    if (!m)
        return -1;
    *out = m;
    return 0;
}

/* Sets one "name=value" option with its typed value: numbers parsed here
   (g_ascii_strtod, strtol), enums by nick, arrays of doubles space-separated.
   Not vips_object_set_from_string: two threads parsing numbers there at once
   (a batch's first two photos) failed 1 time in 15 in libvips 8.14 with no
   error message ("scale=0.45,vscale=0.8" to resize; a standalone C program
   showed it, typed values never). Other types still go through libvips' own
   parser. */
static int set_option(VipsOperation *operation, const char *op_name, const char *name, const char *value) {
    GParamSpec *pspec = g_object_class_find_property(G_OBJECT_GET_CLASS(operation), name);
    if (!pspec) {
        vips_error("veil", "%s: no option %s", op_name, name);
        return -1;
    }
    GType type = G_PARAM_SPEC_VALUE_TYPE(pspec);
    char *end = NULL;
    if (G_IS_PARAM_SPEC_DOUBLE(pspec)) {
        double d = g_ascii_strtod(value, &end);
        GParamSpecDouble *range = G_PARAM_SPEC_DOUBLE(pspec);
        /* Out of range, g_object_set would only warn and keep the default. */
        if (end == value || *end || !(d >= range->minimum && d <= range->maximum)) goto bad;
        g_object_set(operation, name, d, NULL);
    } else if (G_IS_PARAM_SPEC_INT(pspec)) {
        long i = strtol(value, &end, 10);
        GParamSpecInt *range = G_PARAM_SPEC_INT(pspec);
        if (end == value || *end || i < range->minimum || i > range->maximum) goto bad;
        g_object_set(operation, name, (int)i, NULL);
    } else if (G_IS_PARAM_SPEC_BOOLEAN(pspec)) {
        gboolean b;
        if (!g_ascii_strcasecmp(value, "true") || !strcmp(value, "1")) b = TRUE;
        else if (!g_ascii_strcasecmp(value, "false") || !strcmp(value, "0")) b = FALSE;
        else goto bad;
        g_object_set(operation, name, b, NULL);
    } else if (G_IS_PARAM_SPEC_ENUM(pspec)) {
        int e = vips_enum_from_nick(op_name, type, value);
        if (e < 0) return -1;
        g_object_set(operation, name, e, NULL);
    } else if (type == VIPS_TYPE_ARRAY_DOUBLE) {
        gchar **words = g_strsplit(value, " ", -1);
        int n = (int)g_strv_length(words);
        double *numbers = g_new(double, n > 0 ? n : 1);
        int ok = n > 0;
        for (int k = 0; ok && k < n; k++) {
            numbers[k] = g_ascii_strtod(words[k], &end);
            ok = end != words[k] && !*end;
        }
        g_strfreev(words);
        if (ok) {
            VipsArrayDouble *array = vips_array_double_new(numbers, n);
            g_object_set(operation, name, array, NULL);
            vips_area_unref(VIPS_AREA(array));
        }
        g_free(numbers);
        if (!ok) goto bad;
    } else {
        gchar *pair = g_strdup_printf("%s=%s", name, value);
        int rc = vips_object_set_from_string(VIPS_OBJECT(operation), pair);
        g_free(pair);
        return rc;
    }
    return 0;
bad:
    vips_error("veil", "%s: %s=%s is not a valid value (or out of range)", op_name, name, value);
    return -1;
}

/* `options` split at commas into name=value pairs, each set by set_option. */
static int set_options(VipsOperation *operation, const char *op_name, const char *options) {
    gchar **pairs = g_strsplit(options, ",", -1);
    int rc = 0;
    for (int i = 0; rc == 0 && pairs[i]; i++) {
        if (!*pairs[i]) continue;
        char *equals = strchr(pairs[i], '=');
        if (!equals) {
            vips_error("veil", "%s: option %s has no value", op_name, pairs[i]);
            rc = -1;
            break;
        }
        *equals = 0;
        rc = set_option(operation, op_name, pairs[i], equals + 1);
    }
    g_strfreev(pairs);
    return rc;
}

int veil_vips_call(const char *name, const char *image_arguments, VipsImage **images,
                   int n, const char *options, VipsImage **out) {
    VipsOperation *operation = vips_operation_new(name);
    if (!operation)
        return -1;
    gchar **names = g_strsplit(image_arguments, " ", -1);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (!names[i]) {
            vips_error("veil", "%s: more images than argument names", name);
            rc = -1;
            break;
        }
        g_object_set(operation, names[i], images[i], NULL);
    }
    g_strfreev(names);
    if (rc == 0 && options && *options)
        rc = set_options(operation, name, options);
    if (rc == 0)
        rc = vips_cache_operation_buildp(&operation);
    if (rc == 0)
        g_object_get(operation, "out", out, NULL);
    vips_object_unref_outputs(VIPS_OBJECT(operation));
    g_object_unref(operation);
    return rc;
}

int veil_vips_bandjoin2(VipsImage *a, VipsImage *b, VipsImage **out) {
    return vips_bandjoin2(a, b, out, NULL);
}
int veil_vips_flatten(VipsImage *in, VipsImage **out, double r, double g, double b) {
    double bg[3] = {r, g, b};
    VipsArrayDouble *background = vips_array_double_new(bg, 3);
    int rc = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return rc;
}


int veil_vips_draw_rect(VipsImage *image, const double *ink, int n, int left,
                        int top, int width, int height, int fill) {
    return vips_draw_rect(image, (double *)ink, n, left, top, width, height,
                          "fill", fill, NULL);
}
int veil_vips_draw_circle(VipsImage *image, const double *ink, int n, int cx,
                          int cy, int radius, int fill) {
    return vips_draw_circle(image, (double *)ink, n, cx, cy, radius, "fill",
                            fill, NULL);
}
int veil_vips_draw_line(VipsImage *image, const double *ink, int n, int x1,
                        int y1, int x2, int y2) {
    return vips_draw_line(image, (double *)ink, n, x1, y1, x2, y2, NULL);
}
int veil_vips_text(VipsImage **out, const char *text, int height) {
    char *escaped = g_markup_escape_text(text, -1);
    char font[64];
    g_snprintf(font, sizeof(font), "sans bold %d", height > 4 ? height * 3 / 4 : 4);
    int rc = vips_text(out, escaped, "font", font, "dpi", 72, NULL);
    g_free(escaped);
    return rc;
}
int veil_vips_draw_mask(VipsImage *image, const double *ink, int n,
                        VipsImage *mask, int x, int y) {
    return vips_draw_mask(image, (double *)ink, n, mask, x, y, NULL);
}
int veil_vips_draw_image(VipsImage *image, VipsImage *sub, int x, int y) {
    return vips_draw_image(image, sub, x, y, NULL);
}

int veil_vips_new_constant(VipsImage **out, int width, int height,
                           const double *values, int bands) {
    VipsImage *black = NULL;
    if (vips_black(&black, width, height, "bands", bands, NULL))
        return -1;
    double *zero = g_new0(double, bands);
    VipsImage *lin = NULL;
    int rc = vips_linear(black, &lin, zero, (double *)values, bands, NULL);
    g_free(zero);
    g_object_unref(black);
    if (rc)
        return rc;
    rc = vips_cast(lin, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(lin);
    return rc;
}
int veil_vips_boxblur(VipsImage *in, VipsImage **out, int radius) {
    int n = 2 * (radius > 0 ? radius : 0) + 1;
    VipsImage *matrix = vips_image_new_matrix(n, 1);
    if (!matrix)
        return -1;
    for (int i = 0; i < n; i++)
        *VIPS_MATRIX(matrix, i, 0) = 1.0;
    vips_image_set_double(matrix, "scale", n);
    vips_image_set_double(matrix, "offset", 0);
    int rc = vips_convsep(in, out, matrix, "precision", VIPS_PRECISION_FLOAT,
                          NULL);
    g_object_unref(matrix);
    return rc;
}
int veil_vips_labelregions(VipsImage *in, VipsImage **out) {
    return vips_labelregions(in, out, NULL);
}
int veil_vips_min_max(VipsImage *in, double *min, double *max) {
    if (vips_min(in, min, NULL))
        return -1;
    return vips_max(in, max, NULL);
}
int veil_vips_maplut(VipsImage *in, VipsImage **out, const uint8_t *table) {
    VipsImage *lut = vips_image_new_from_memory_copy(table, 256, 256, 1, 1,
                                                     VIPS_FORMAT_UCHAR);
    if (!lut)
        return -1;
    int rc = vips_maplut(in, out, lut, NULL);
    g_object_unref(lut);
    return rc;
}

int veil_vips_save_buffer(VipsImage *in, const char *suffix, void **data,
                          size_t *length) {
    return vips_image_write_to_buffer(in, suffix, data, length, NULL);
}
unsigned char *veil_vips_memory_pixels(VipsImage *image, size_t *length) {
    if (vips_image_wio_input(image))
        return NULL;
    *length = VIPS_IMAGE_SIZEOF_IMAGE(image);
    return VIPS_IMAGE_ADDR(image, 0, 0);
}
void veil_vips_free(void *p) { g_free(p); }
