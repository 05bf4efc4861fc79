// Internal to the shim: what the reader, the writer and the audio
// transcoder share.
#ifndef VEIL_SHIM_H
#define VEIL_SHIM_H

// First: every FFmpeg header, then the macros that route the shim's calls
// through the table loaded on first use (later FFmpeg includes are no-ops).
#include "veil_av.h"
#include "veil_video.h"

/* One input stream as the writer needs it. */
typedef struct {
    AVCodecParameters *parameters;
    AVRational time_base;
} VeilStreamCopy;

struct VeilStreams {
    VeilStreamCopy *streams;
    int count;
    int video;                    /* index of the video stream */
    AVRational frame_rate;        /* the video's, {0, 1} if unknown */
    AVRational sample_aspect_ratio;
    uint8_t *display_matrix;      /* NULL when none */
    size_t display_matrix_size;
};

/* Records in `failure` (when given) the step that failed and FFmpeg's code (code < 0). */
void veil_fail(VeilFailure *failure, int step, int code);

/* Moves every packet `encoder` has ready into `format`'s `stream`. */
int veil_drain_encoder(AVFormatContext *format, AVCodecContext *encoder, AVStream *stream,
                       AVPacket *packet, VeilFailure *failure);

/* An audio stream the output container cannot take as it is: decoded,
   resampled and encoded with the container's own audio codec. */
typedef struct VeilAudioTranscoder VeilAudioTranscoder;
VeilAudioTranscoder *veil_audio_open(AVFormatContext *format, const VeilStreamCopy *source);
int veil_audio_stream_index(const VeilAudioTranscoder *transcoder);
/* Decodes a packet (NULL: flush everything to the muxer). */
int veil_audio_feed(AVFormatContext *format, VeilAudioTranscoder *transcoder, AVPacket *packet);
void veil_audio_free(VeilAudioTranscoder *transcoder);

#endif
