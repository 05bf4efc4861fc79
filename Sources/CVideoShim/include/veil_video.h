// A thin C edge over FFmpeg's libraries: a reader that yields RGB frames and
// passes every other stream's packets on, and a writer that encodes RGB
// frames (H.264 by default) and copies those packets (re-encoding audio the
// container cannot take), keeping timestamps, frame rate, rotation metadata
// and the other streams. FFmpeg's macros and pointer-to-array fields stay on
// this side; threads, queues and policy live in Swift.
#ifndef VEIL_VIDEO_H
#define VEIL_VIDEO_H

#include <stddef.h>
#include <stdint.h>

/* Why a call failed. C names the step and passes FFmpeg's code on; the
   words, in the user's language, are Swift's (VideoShimFailure). `detail`
   holds the numbers a step names: a frame size over the limit is width,
   height and the limit. */
typedef struct {
    int step;          /* VEIL_FAILED_* */
    int code;          /* FFmpeg's error, 0 when none */
    int64_t detail[3];
} VeilFailure;
enum {
    VEIL_FAILED_NOTHING = 0,
    VEIL_FAILED_CHOOSE_OUTPUT_FORMAT,
    VEIL_FAILED_COPIED_NOT_AVCC,
    VEIL_FAILED_CREATE_OUTPUT,
    VEIL_FAILED_ENCODE,
    VEIL_FAILED_ENCODE_VIDEO,
    VEIL_FAILED_FINISH_AUDIO,
    VEIL_FAILED_FINISH_OUTPUT,
    VEIL_FAILED_MAKE_OUTPUT_STREAMS,
    VEIL_FAILED_MUXER_OPTIONS,
    VEIL_FAILED_NO_DECODER,
    VEIL_FAILED_NO_ENCODER,
    VEIL_FAILED_NO_FRAME_SIZE,
    VEIL_FAILED_NO_VIDEO_STREAM,
    VEIL_FAILED_OPEN_DECODER,
    VEIL_FAILED_OPEN_ENCODER,
    VEIL_FAILED_OPEN_INPUT,
    VEIL_FAILED_OPEN_OUTPUT,
    VEIL_FAILED_PREPARE_FRAME,
    VEIL_FAILED_READ_A_PART,
    VEIL_FAILED_READ_INPUT,
    VEIL_FAILED_REENCODE_AUDIO,
    VEIL_FAILED_RESTART_PARAMETERS,
    VEIL_FAILED_SEEK,
    VEIL_FAILED_START_OUTPUT,
    VEIL_FAILED_STOPPED_BEFORE_OPEN,
    VEIL_FAILED_STREAM_INFO,
    VEIL_FAILED_UNKNOWN_INPUT_FORMAT,
    VEIL_FAILED_UNKNOWN_OUTPUT_FORMAT,
    VEIL_FAILED_WRITE_COPIED,
    VEIL_FAILED_WRITE_OUTPUT,
    VEIL_FAILED_FRAMES_OVER_LIMIT,
    VEIL_FAILED_READ_PART,
    VEIL_FAILED_PART_STREAMS,
};

typedef struct VeilVideoReader VeilVideoReader;
typedef struct VeilVideoWriter VeilVideoWriter;
/* A copy of an input's stream parameters, made at open: what a writer needs
   to mirror the input without holding the reader. */
typedef struct VeilStreams VeilStreams;

typedef struct {
    int width, height;
    int rate_num, rate_den;        /* the stream's average frame rate, 0/0 when unknown */
    int real_rate_num, real_rate_den; /* its base rate (r_frame_rate), 0/0 when unknown */
    int time_base_num, time_base_den;
    int64_t frames;                /* container's count, 0 if unknown */
    double duration;               /* seconds, 0 if unknown */
    double display_angle;          /* the display matrix's rotation, degrees clockwise; NAN when none */
    int other_streams;             /* audio, subtitle, data streams */
    int has_audio;
    double audio_duration;         /* seconds of the first audio stream, 0 if none/unknown */
    int audio_sample_rate;         /* of the first audio stream, 0 if none */
} VeilVideoInfo;

/* ---- Reader (veil_reader.c) ---- */

/* FFmpeg's libraries are opened on the first video call, not at start:
   1 when they are there (loading them if need be), else 0 and
   veil_video_missing() names the library or function not found. */
int veil_video_available(void);
const char *veil_video_missing(void);
/* The Debian packages that hold them, for the one line either side says. */
#define VEIL_FFMPEG_PACKAGES "libavformat59, libavcodec59, libavdevice59, libswscale6 and libswresample4"

/* A reader not yet open: `veil_reader_interrupt` works from its creation on,
   so a stop can reach an open that waits for a live stream. */
VeilVideoReader *veil_reader_alloc(void);
/* Opens a file, URL or device (`format` e.g. "v4l2", or NULL to probe).
   Frames over `max_pixels` (0: no limit) are refused from the header; the
   decoder runs `decoder_threads` threads; `fps_probe_frames` > 0 caps the
   frames read ahead to measure the frame rate (0: FFmpeg's default). */
int veil_reader_open(VeilVideoReader *reader, const char *url, const char *format,
                     int64_t max_pixels, int decoder_threads, int fps_probe_frames, VeilFailure *failure);
void veil_reader_info(const VeilVideoReader *reader, VeilVideoInfo *info);
/* The decode loop, driven from Swift (`VideoReader.next`), one FFmpeg call each.
   The packet being read: its stream, whether it is the video's, its pts and
   whether the input was cut inside it. */
typedef struct {
    int stream;
    int video;
    int64_t pts;
    int corrupt;
} VeilPacketInfo;
/* The frame just decoded: its size and its best-effort pts. */
typedef struct {
    int width, height;
    int64_t pts;
} VeilFrameInfo;
/* Whether `veil_reader_interrupt` was called. */
int veil_reader_interrupted(const VeilVideoReader *reader);
/* av_read_frame into the reader's packet: 0, or FFmpeg's error (AVERROR_EOF at the end). */
int veil_reader_read_packet(VeilVideoReader *reader, VeilPacketInfo *info);
/* The reader's packet to the decoder (non-reference frames discarded when
   asked): 0 and the packet released, AVERROR(EAGAIN) and the packet kept
   (take a frame out, then send again), or another error, the packet released. */
int veil_reader_send_packet(VeilVideoReader *reader, int discard_nonreference);
/* The input has ended: any packet kept is released and the decoder drains. */
int veil_reader_end_input(VeilVideoReader *reader);
void veil_reader_drop_packet(VeilVideoReader *reader);
/* The reader's packet, another stream's, held for `veil_reader_take_packet`. */
void veil_reader_hold_packet(VeilVideoReader *reader);
/* avcodec_receive_frame: 0 with the frame's info, or FFmpeg's error. */
int veil_reader_receive_frame(VeilVideoReader *reader, VeilFrameInfo *info);
void veil_reader_drop_frame(VeilVideoReader *reader);
/* The frame received into `rgb` (width*height*3 bytes, tightly packed) and released: 0, or an error. */
int veil_reader_convert_frame(VeilVideoReader *reader, uint8_t *rgb);
/* Before veil_reader_convert_frame: a reference to the frame received, for a
   writer to keep its pixels where no cover is drawn (veil_writer_frame_over),
   or NULL when it is not 8-bit 4:2:0 (the writer then converts all of it).
   The caller owns it until veil_picture_free. */
void *veil_reader_keep_picture(VeilVideoReader *reader);
void veil_picture_free(void *picture);
/* The held packet, its time base set: the caller owns it until veil_packet_free. */
void *veil_reader_take_packet(VeilVideoReader *reader);
/* FFmpeg's words for an error code, and the codes the loop tells apart. */
void veil_error_string(int code, char *text, size_t length);
int veil_error_again(void);
int veil_error_eof(void);
int veil_error_invalid_data(void);
/* From any thread: a blocked open or read returns; reading then drains. */
void veil_reader_interrupt(VeilVideoReader *reader);
VeilStreams *veil_reader_streams(const VeilVideoReader *reader);
void veil_reader_close(VeilVideoReader *reader);

void veil_streams_free(VeilStreams *streams);
/* The video's size, as a writer mirroring `streams` encodes it. */
void veil_streams_video_size(const VeilStreams *streams, int *width, int *height);

/* What this FFmpeg can encode with, for Swift to choose (EncoderChoice):
   whether `name` is a video encoder; the name of the encoder FFmpeg picks for
   `codec` ("h264", "mpeg4"), NULL when none; whether an encoder takes a pixel
   format (its list, or yuv420p alone when it lists none); its first format. */
int veil_video_encoder_exists(const char *name);
const char *veil_video_encoder_for(const char *codec);
int veil_video_encoder_takes(const char *encoder, const char *pixel_format);
const char *veil_video_encoder_first_format(const char *encoder);
void veil_packet_free(void *packet);

/* ---- Writer (veil_writer.c, audio in veil_audio.c) ---- */

typedef struct {
    const char *format;      /* muxer; NULL: from the file name */
    const char *codec;       /* the encoder, by name (Swift chooses it: EncoderChoice) */
    const char *pixel_format; /* its input format, by name ("yuv420p"; Swift chooses it) */
    int crf;                 /* < 0: the encoder's default */
    const char *preset;      /* x264 preset, NULL: its default */
    const char *tune;        /* x264 tune, NULL: none */
    const char *x264_params; /* "key=value:..." NULL: none */
    int threads;             /* encoder threads, 0: FFmpeg's choice */
    const char *muxer_options; /* "key=value:..." handed to the muxer, NULL: none */
    const int *stream_actions; /* per input stream, the video's ignored: VEIL_STREAM_*; NULL: drop them all */
    int stream_action_count;
} VeilWriterOptions;

/* What a writer does with each other stream (Swift decides: StreamPlan). */
enum { VEIL_STREAM_DROP = 0, VEIL_STREAM_COPY = 1, VEIL_STREAM_REENCODE = 2 };
/* The input's streams, for that decision: how many, which is the video,
   whether one is audio, and whether the container `format` (or, NULL, the
   one `url`'s name implies) takes that stream's codec as it is. */
int veil_streams_count(const VeilStreams *streams);
int veil_streams_video(const VeilStreams *streams);
int veil_streams_is_audio(const VeilStreams *streams, int index);
int veil_muxer_takes(const char *format, const char *url, const VeilStreams *streams, int index);

/* Opens an output mirroring `streams`: the video re-encoded and, unless
   `stream_actions` say otherwise, the other streams copied where the container takes
   them, audio re-encoded with the container's audio codec otherwise. */
VeilVideoWriter *veil_writer_open(const char *url, const VeilStreams *streams,
                                  const VeilWriterOptions *options,
                                  VeilFailure *failure);
int veil_writer_frame(VeilVideoWriter *writer, const uint8_t *rgb, int64_t pts,
                      VeilFailure *failure);
/* The same frame written as `picture` (veil_reader_keep_picture's, not
   freed) with only `rect_count` rectangles (x, y, width, height: 4 int32
   each) converted from `rgb`: the covers. Every other pixel is the decoder's
   own, with no round trip through RGB. Without a picture of the encoder's
   format and size, as veil_writer_frame. */
int veil_writer_frame_over(VeilVideoWriter *writer, const uint8_t *rgb, void *picture,
                           const int32_t *rects, int rect_count, int64_t pts, VeilFailure *failure);
/* Writes a packet taken from a reader of the same streams (not freed). */
int veil_writer_packet(VeilVideoWriter *writer, void *packet,
                       VeilFailure *failure);
/* Flushes the encoders and finishes the file (finish = 1), or abandons it;
   the output is closed (and its bytes flushed) either way. */
int veil_writer_close(VeilVideoWriter *writer, int finish, VeilFailure *failure);
/* Streams carried into the output besides the video (copied or re-encoded),
   and how many of them had to be re-encoded. */
int veil_writer_copied_streams(const VeilVideoWriter *writer);
int veil_writer_transcoded_streams(const VeilVideoWriter *writer);
/* `veil_writer_packet`'s answer for a packet the output's muxer (or the
   audio decoder, when re-encoding) refused as damaged: nothing was written. */
enum { VEIL_PACKET_REFUSED = 1 };

/* ---- Time segments (veil_segment.c; the seek in veil_reader.c) ---- */

/* The presentation times of the video's keyframes, in its stream's time base,
   in file order (read from packets, nothing decoded); free with veil_free. */
int veil_probe_keyframes(const char *url, int64_t **times, int *count, int *time_base_num, int *time_base_den,
                         VeilFailure *failure);
void veil_free(void *pointer);
/* Goes to the keyframe at or before `pts` (the video stream's time base)
   and flushes the decoder: before the first read or between reads. */
int veil_reader_seek(VeilVideoReader *reader, int64_t pts, VeilFailure *failure);
/* A taken packet's time in seconds (pts, else dts; NaN if neither). */
double veil_packet_seconds(const void *packet);
/* The join of the parts (outputs of segments of one input): packets copied,
   nothing re-encoded. Which packet goes where, and how each stream ends, is
   VideoJoin's (Swift); these only open, read and write. */
typedef struct VeilJoin VeilJoin;
typedef struct VeilPart VeilPart;
/* Opens `output` with the streams of part `first`. */
VeilJoin *veil_join_open(const char *first, const char *output, const char *format,
                         VeilFailure *failure);
/* Writes (and leaves blank) a packet read from a part. */
int veil_join_write(VeilJoin *join, void *packet, VeilFailure *failure);
/* Finishes the file (finish = 1) or abandons it; closed either way. */
int veil_join_close(VeilJoin *join, int finish, VeilFailure *failure);
/* Opens a part, refusing one without the output's streams. */
VeilPart *veil_part_open(const VeilJoin *join, const char *url, VeilFailure *failure);
/* 1 and a packet (the caller's, its times in the output's clock of its
   stream), 0 at the end, negative on an error. */
int veil_part_read(VeilPart *part, void **packet, VeilFailure *failure);
/* Where `stream` ends in the part (its start plus its duration, as the
   part's container says), in the output's clock; veil_no_time() if unknown. */
int64_t veil_part_stream_end(const VeilPart *part, int stream, const VeilJoin *join);
void veil_part_close(VeilPart *part);
int veil_packet_stream(const void *packet);
void veil_packet_timing(const void *packet, int64_t *pts, int64_t *dts, int64_t *duration);
void veil_packet_set_duration(void *packet, int64_t duration);
int64_t veil_no_time(void);

/* ---- Splicing a re-render (veil_splice in veil_segment.c and veil_writer.c) ----
   A re-render copies the GOPs of the previous output that no edit touches
   and re-encodes the others; which GOPs, and whether the previous output
   can be spliced at all, is VideoSplice's (Swift). */
typedef struct {
    int64_t *pts, *dts;            /* per video packet, in file (decode) order */
    int *key;                      /* 1: a keyframe */
    int count;
    int time_base_num, time_base_den;
    int width, height;
    int h264;                      /* 1: H.264 */
    uint8_t *extradata;            /* the stream's parameter sets (an mp4's avcC) */
    int extradata_size;
} VeilVideoPackets;
/* The video stream's packets of `url` (read, nothing decoded). */
int veil_probe_video_packets(const char *url, VeilVideoPackets *packets, VeilFailure *failure);
void veil_video_packets_free(VeilVideoPackets *packets);
/* Reads `url`'s video stream alone (video = 1) or every other stream
   (video = 0), packets in their own streams' clocks; read with
   veil_part_read, close with veil_part_close. */
VeilPart *veil_part_open_streams(const char *url, int video, VeilFailure *failure);
/* The parameter sets (extradata) an encoder opened with `options` for
   `streams`' video makes; the caller frees `data` with veil_free. */
int veil_encoder_headers(const VeilStreams *streams, const VeilWriterOptions *options, uint8_t **data, int *size,
                         VeilFailure *failure);
/* Writes a video packet read from a previous output (its time base set):
   H.264 with 4-byte NAL lengths, into an output whose encoder writes start codes. */
int veil_writer_video_packet(VeilVideoWriter *writer, void *packet, VeilFailure *failure);
/* Flushes the video encoder and opens a new one with the same options: its
   next frame is a keyframe that references nothing before it. Fails if the
   new encoder's parameter sets are not the output's. */
int veil_writer_restart_video(VeilVideoWriter *writer, VeilFailure *failure);

/* Quiet FFmpeg's own logging (errors reach the caller as VeilFailure). */
void veil_video_quiet(void);

/* The versions of the FFmpeg libraries loaded, for `veil --version`
   (av_version_info, LIBAVFORMAT/LIBAVCODEC_VERSION_INT). */
const char *veil_ffmpeg_version(void);
unsigned veil_avformat_version(void);
unsigned veil_avcodec_version(void);

#endif
