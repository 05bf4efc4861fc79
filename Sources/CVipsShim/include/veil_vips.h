// Fixed-argument wrappers round libvips' variadic API, so Swift can call it.
// Every function returns 0 on success and -1 on failure (message in
// veil_vips_error()), unless it returns a pointer (NULL on failure).
#ifndef VEIL_VIPS_H
#define VEIL_VIPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct _VipsImage VipsImage;

int veil_vips_init(int threads);
const char *veil_vips_error(void);
void veil_vips_error_clear(void);
void veil_vips_unref(VipsImage *image);

/* Loading: lazy (header only until pixels are needed). `fail` makes
   truncated or damaged files an error instead of a warning. */
VipsImage *veil_vips_load_file(const char *path, int sequential);
VipsImage *veil_vips_load_buffer(const void *data, size_t length, int sequential);
VipsImage *veil_vips_from_memory(const void *data, size_t length, int width,
                                 int height, int bands, int is_float);
const char *veil_vips_loader(VipsImage *image);

int veil_vips_width(VipsImage *image);
int veil_vips_height(VipsImage *image);
int veil_vips_bands(VipsImage *image);
int veil_vips_is_uchar(VipsImage *image);
int veil_vips_has_alpha(VipsImage *image);
/* Whether libvips takes the image for sRGB (vips_image_guess_interpretation). */
int veil_vips_is_srgb(VipsImage *image);
int veil_vips_orientation(VipsImage *image);
int veil_vips_set_int(VipsImage *image, const char *name, int value);

/* Any libvips operation by name, e.g. veil_vips_call("resize", "in", &image,
   1, "scale=0.5,vscale=0.5,kernel=lanczos3", &out): the images are bound, in
   order, to the space-separated argument names in `image_arguments`; the
   other arguments as comma-separated name=value (numbers, booleans, enums by
   nick, arrays of doubles space-separated), set as typed values; the operation's "out"
   image is returned. Only operations with more than a name and numbers
   (arrays, several steps) keep a wrapper of their own below. */
int veil_vips_call(const char *name, const char *image_arguments, VipsImage **images,
                   int n, const char *options, VipsImage **out);

int veil_vips_copy_memory(VipsImage *in, VipsImage **out);

/* Colour and format. */
int veil_vips_bandjoin2(VipsImage *a, VipsImage *b, VipsImage **out);
int veil_vips_flatten(VipsImage *in, VipsImage **out, double r, double g, double b);

/* Filters and compositing. */
int veil_vips_draw_rect(VipsImage *image, const double *ink, int n, int left,
                        int top, int width, int height, int fill);
int veil_vips_draw_circle(VipsImage *image, const double *ink, int n, int cx,
                          int cy, int radius, int fill);
int veil_vips_draw_line(VipsImage *image, const double *ink, int n, int x1,
                        int y1, int x2, int y2);
/* Renders `text` (Pango markup off) as a one-band mask, `height` pixels tall. */
int veil_vips_text(VipsImage **out, const char *text, int height);
int veil_vips_draw_mask(VipsImage *image, const double *ink, int n,
                        VipsImage *mask, int x, int y);
/* Pastes `sub` into `image` (in memory) at (x, y), in place. */
int veil_vips_draw_image(VipsImage *image, VipsImage *sub, int x, int y);

/* Masks (subject lifting, guided filter). */
/* Mean over a (2 radius + 1) square window, edges copied; float output. */
int veil_vips_boxblur(VipsImage *in, VipsImage **out, int radius);
/* Labels every 4-connected region of equal pixel value (int32, from 0). */
int veil_vips_labelregions(VipsImage *in, VipsImage **out);
int veil_vips_min_max(VipsImage *in, double *min, double *max);
/* Maps a uchar image through a 256-entry table. */
int veil_vips_maplut(VipsImage *in, VipsImage **out, const uint8_t *table);
int veil_vips_new_constant(VipsImage **out, int width, int height,
                           const double *values, int bands);

/* Saving: `suffix` picks the format and options, e.g. ".jpg[Q=90,strip]". */
int veil_vips_save_buffer(VipsImage *in, const char *suffix, void **data,
                          size_t *length);
/* The pixels of an image in memory (as vips_image_copy_memory leaves one),
   row after row, and their length in bytes; NULL (libvips' error set) if it
   cannot be read as a whole. Valid while the image lives. */
unsigned char *veil_vips_memory_pixels(VipsImage *image, size_t *length);
void veil_vips_free(void *p);

/* libvips' version as loaded (vips_version_string), for `veil --version`. */
const char *veil_vips_version(void);

#endif
