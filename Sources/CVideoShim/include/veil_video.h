// A thin C edge over FFmpeg's libraries: a reader that yields RGB frames and
// passes every other stream's packets through, and a writer that encodes RGB
// frames (H.264 by default) and copies those packets, keeping timestamps,
// frame rate, rotation metadata and the other streams. FFmpeg's macros and
// pointer-to-array fields stay on this side.
#ifndef VEIL_VIDEO_H
#define VEIL_VIDEO_H

#include <stddef.h>
#include <stdint.h>

typedef struct VeilVideoReader VeilVideoReader;
typedef struct VeilVideoWriter VeilVideoWriter;

typedef struct {
    int width, height;
    int rate_num, rate_den;        /* average frame rate */
    int time_base_num, time_base_den;
    int64_t frames;                /* container's count, 0 if unknown */
    double duration;               /* seconds, 0 if unknown */
    int rotation;                  /* degrees clockwise to display upright: 0, 90, 180, 270 */
    int other_streams;             /* audio, subtitle, data streams */
    int has_audio;
    double audio_duration;         /* seconds of the first audio stream, 0 if none/unknown */
} VeilVideoInfo;

enum { VEIL_VIDEO_END = 0, VEIL_VIDEO_FRAME = 1, VEIL_VIDEO_PACKET = 2 };

/* Opens a file, URL or device (`format` e.g. "v4l2", or NULL to probe). */
VeilVideoReader *veil_video_open(const char *url, const char *format,
                                 char *error, size_t error_length);
void veil_video_info(const VeilVideoReader *reader, VeilVideoInfo *info);
/* Reads on until a video frame is decoded into `rgb` (width*height*3 bytes,
   tightly packed; returns VEIL_VIDEO_FRAME with its pts in the stream's time
   base), or another stream's packet is held for the writer (VEIL_VIDEO_PACKET),
   or the input ends (VEIL_VIDEO_END). Negative: an error, message in `error`. */
int veil_video_read(VeilVideoReader *reader, uint8_t *rgb, int64_t *pts,
                    char *error, size_t error_length);
void veil_video_close(VeilVideoReader *reader);

/* Opens an output mirroring the reader's video (re-encoded) and, unless
   `drop_other_streams`, its other streams: copied where the container takes
   them, audio re-encoded with the container's audio codec otherwise.
   `format` NULL: from the file name. `codec` NULL: libx264. */
VeilVideoWriter *veil_writer_open(const char *url, const char *format,
                                  const VeilVideoReader *reader, const char *codec,
                                  int crf, const char *preset, int drop_other_streams,
                                  char *error, size_t error_length);
int veil_writer_frame(VeilVideoWriter *writer, const uint8_t *rgb, int64_t pts,
                      char *error, size_t error_length);
/* Takes the packet the reader holds (after VEIL_VIDEO_PACKET): the caller
   owns it until it is written or freed. */
void *veil_video_take_packet(VeilVideoReader *reader);
void veil_video_free_packet(void *packet);
/* Writes (and frees) a packet taken from `reader`. */
int veil_writer_packet(VeilVideoWriter *writer, const VeilVideoReader *reader,
                       void *packet, char *error, size_t error_length);
/* Flushes the encoder and finishes the file (finish = 1), or abandons it. */
int veil_writer_close(VeilVideoWriter *writer, int finish, char *error,
                      size_t error_length);
/* Streams carried into the output besides the video (copied or re-encoded),
   and how many of them had to be re-encoded. */
int veil_writer_copied_streams(const VeilVideoWriter *writer);
int veil_writer_transcoded_streams(const VeilVideoWriter *writer);

/* Makes a clip from RGB frames (H.264 or MPEG-4) with, optionally, a 440 Hz
   tone as long as the video (with_audio 1: AAC, 2: 16-bit PCM), and a display
   rotation: for tests and demos. */
typedef struct VeilClipWriter VeilClipWriter;
VeilClipWriter *veil_clip_open(const char *path, int width, int height, int fps,
                               int with_audio, int rotation_degrees,
                               char *error, size_t error_length);
int veil_clip_frame(VeilClipWriter *clip, const uint8_t *rgb);
int veil_clip_close(VeilClipWriter *clip);

/* Quiet FFmpeg's own logging (errors reach the caller as messages). */
void veil_video_quiet(void);

#endif
