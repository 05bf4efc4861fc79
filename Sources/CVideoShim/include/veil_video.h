// A thin C edge over FFmpeg's libraries: a reader that yields RGB frames and
// passes every other stream's packets on, and a writer that encodes frames
// (H.264 by default) and copies those packets (re-encoding audio the
// container cannot take), keeping timestamps, frame rate, rotation metadata
// and the other streams. FFmpeg's macros and pointer-to-array fields stay on
// this side; threads, queues, pixels, bytes of packets and every decision
// live in Swift. No words either: a failure is a step and FFmpeg's code.
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

/* The video stream as the reader opened it. */
typedef struct {
    int width, height;             /* the decoder's */
    int rate_num, rate_den;        /* the stream's average frame rate, 0/0 when unknown */
    int real_rate_num, real_rate_den; /* its base rate (r_frame_rate), 0/0 when unknown */
    int time_base_num, time_base_den;
    int64_t frames;                /* container's count, 0 if unknown */
    int64_t duration;              /* in the time base; veil_no_time() when unknown */
    int64_t container_duration;    /* the container's, in microseconds; veil_no_time() when unknown */
    double display_angle;          /* the display matrix's rotation, degrees clockwise; NAN when none */
    int stream;                    /* its index */
    int streams;                   /* how many the input has, the video's included */
} VeilVideoInfo;
/* One of the input's streams. */
typedef struct {
    int audio;                     /* 1: an audio stream */
    int sample_rate;
    int64_t duration;              /* in its time base; veil_no_time() when unknown */
    int time_base_num, time_base_den;
} VeilStreamInfo;
/* Bytes owned by the shim (or FFmpeg): valid while their owner is. */
typedef struct {
    const uint8_t *data;
    int size;
} VeilBytes;

/* ---- Reader (veil_reader.c) ---- */

/* FFmpeg's libraries are opened on the first video call, not at start:
   1 when they are there (loading them if need be), else 0 and
   veil_video_missing() names the library or function not found. Swift asks
   before its first video call (VideoLibraries.require); every other entry
   point takes them as loaded. */
int veil_video_available(void);
const char *veil_video_missing(void);

/* A reader not yet open: `veil_reader_interrupt` works from its creation on,
   so a stop can reach an open that waits for a live stream. */
VeilVideoReader *veil_reader_alloc(void);
/* Opens a file, URL or device (`format` e.g. "v4l2", or NULL to probe) and
   finds its video stream and decoder; `fps_probe_frames` caps the frames
   read ahead to measure the frame rate (-1: FFmpeg's default). */
int veil_reader_open(VeilVideoReader *reader, const char *url, const char *format, int fps_probe_frames,
                     VeilFailure *failure);
/* The video's frame size as its header says (before a decoder is opened). */
void veil_reader_frame_size(const VeilVideoReader *reader, int *width, int *height);
/* Opens the video's decoder, running `threads` threads. */
int veil_reader_open_decoder(VeilVideoReader *reader, int threads, VeilFailure *failure);
/* After the decoder opened: the video stream, and each stream by index. */
void veil_reader_info(const VeilVideoReader *reader, VeilVideoInfo *info);
void veil_reader_stream_info(const VeilVideoReader *reader, int index, VeilStreamInfo *info);
/* The decode loop, driven from Swift (`VideoReader.next`), one FFmpeg call each.
   The packet being read: its stream, whether it is the video's, its pts and
   whether the input was cut inside it. */
typedef struct {
    int stream;
    int video;
    int64_t pts;
    int corrupt;
} VeilPacketInfo;
/* The frame just decoded: its size, whether it is 8-bit 4:2:0, and its best-effort pts. */
typedef struct {
    int width, height;
    int yuv420p;
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
   writer to keep its pixels where no cover is drawn (veil_writer_picture).
   The caller owns it until veil_picture_free. */
void *veil_reader_keep_picture(VeilVideoReader *reader);
void veil_picture_free(void *picture);
/* The held packet, its time base set: the caller owns it until veil_packet_free. */
void *veil_reader_take_packet(VeilVideoReader *reader);
/* FFmpeg's words for an error code (av_strerror: negative when it has none),
   and the codes the loop tells apart. */
int veil_error_string(int code, char *text, size_t length);
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
   `codec` ("h264", "mpeg4"), NULL when none; the pixel formats an encoder
   lists, by name, in its order (at most `capacity`; 0 when it lists none). */
int veil_video_encoder_exists(const char *name);
const char *veil_video_encoder_for(const char *codec);
int veil_video_encoder_formats(const char *encoder, const char **names, int capacity);
void veil_packet_free(void *packet);

/* ---- Writer (veil_writer.c, audio in veil_audio.c) ---- */

/* The video encoder (Swift chooses every field: EncoderChoice, VideoWriter). */
typedef struct {
    const char *format;      /* muxer; NULL: from the file name */
    const char *codec;       /* the encoder, by name */
    const char *pixel_format; /* its input format, by name ("yuv420p") */
    const char *const *encoder_options; /* key, value, key, value...: set on the encoder in order */
    int encoder_option_count; /* pairs */
    int threads;             /* encoder threads, 0: FFmpeg's choice */
} VeilWriterOptions;

/* The input's streams, for what a writer does with each (Swift decides: StreamPlan): how many, which is the video,
   whether one is audio, and whether the container `format` (or, NULL, the
   one `url`'s name implies) takes that stream's codec as it is. */
int veil_streams_count(const VeilStreams *streams);
int veil_streams_video(const VeilStreams *streams);
int veil_streams_is_audio(const VeilStreams *streams, int index);
int veil_muxer_takes(const char *format, const char *url, const VeilStreams *streams, int index);

/* Makes an output mirroring `streams`' video, re-encoded; nothing is
   written until veil_writer_start. */
VeilVideoWriter *veil_writer_open(const char *url, const VeilStreams *streams,
                                  const VeilWriterOptions *options,
                                  VeilFailure *failure);
/* Before the start: input stream `index` copied into the output as it is,
   or re-encoded with the container's audio codec (negative when that
   encoder cannot open). Either answers the output stream's index. */
int veil_writer_copy_stream(VeilVideoWriter *writer, const VeilStreams *streams, int index);
int veil_writer_reencode_stream(VeilVideoWriter *writer, const VeilStreams *streams, int index);
/* Opens `url` and writes the header (`muxer_options`: "key=value:..." for
   the muxer, NULL: none). */
int veil_writer_start(VeilVideoWriter *writer, const char *url, const char *muxer_options, VeilFailure *failure);
/* Encodes packed RGB (width*height*3 bytes), converted whole by swscale. */
int veil_writer_frame(VeilVideoWriter *writer, const uint8_t *rgb, int64_t pts,
                      VeilFailure *failure);
/* The decoder's `picture` (veil_reader_keep_picture's, not freed; 8-bit
   4:2:0 of the writer's size) copied into the writer's frame, whose planes
   are then the caller's to draw into until veil_writer_send. */
typedef struct {
    uint8_t *data[3];
    int linesize[3];
} VeilPlanes;
int veil_writer_picture(VeilVideoWriter *writer, const void *picture, VeilPlanes *planes, VeilFailure *failure);
/* Encodes the writer's frame, stamped `pts`. */
int veil_writer_send(VeilVideoWriter *writer, int64_t pts, VeilFailure *failure);
/* Writes a packet taken from a reader of the same streams (not freed):
   AVERROR_INVALIDDATA (veil_error_invalid_data) when the muxer's filter or
   the audio decoder refuses it as damaged, and nothing was written. */
int veil_writer_packet(VeilVideoWriter *writer, void *packet,
                       VeilFailure *failure);
/* Flushes the encoders and finishes the file (finish = 1), or abandons it;
   the output is closed (and its bytes flushed) either way. */
int veil_writer_close(VeilVideoWriter *writer, int finish, VeilFailure *failure);
/* Streams carried into the output besides the video (copied or re-encoded),
   and how many of them had to be re-encoded. */
int veil_writer_copied_streams(const VeilVideoWriter *writer);
int veil_writer_transcoded_streams(const VeilVideoWriter *writer);

/* ---- Time segments (veil_segment.c; the seek in veil_reader.c) ---- */

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
int veil_packet_key(const void *packet);
void veil_packet_timing(const void *packet, int64_t *pts, int64_t *dts, int64_t *duration);
void veil_packet_set_duration(void *packet, int64_t duration);
int64_t veil_no_time(void);

/* ---- A video's packets, read without decoding (veil_segment.c): the
   keyframes a split may cut at (VideoSegments), the GOPs of a previous
   output and whether it can be spliced at all (VideoSplice, VideoPackets);
   the splice's writing in veil_writer.c ---- */

/* Reads `url`'s video stream alone (video = 1) or every other stream
   (video = 0), packets in their own streams' clocks; read with
   veil_part_read, close with veil_part_close. */
VeilPart *veil_part_open_streams(const char *url, int video, VeilFailure *failure);
/* The video stream of a part veil_part_open_streams opened. */
typedef struct {
    int time_base_num, time_base_den;
    int width, height;
    int h264;                      /* 1: H.264 */
    VeilBytes extradata;           /* the stream's parameter sets (an mp4's avcC), the part's */
    int index_entries;             /* the container's index of it (mp4, mov), 0: none */
} VeilPartVideo;
void veil_part_video(const VeilPart *part, VeilPartVideo *video);
/* Entry `i` of that index: its time (a decode time) and whether it is a keyframe. */
void veil_part_index_entry(const VeilPart *part, int i, int64_t *timestamp, int *key);
/* The parameter sets (extradata) an encoder opened with `options` for
   `streams`' video makes; the caller frees `data` with veil_free. */
int veil_encoder_headers(const VeilStreams *streams, const VeilWriterOptions *options, uint8_t **data, int *size,
                         VeilFailure *failure);
/* A packet's bytes, made its own to change (av_packet_make_writable). */
int veil_packet_data(void *packet, uint8_t **data, int *size);
/* Writes a video packet read from a previous output (its time base set) as
   the output's video, its bytes as they are (Swift turned an mp4's NAL
   lengths into the encoder's start codes). */
int veil_writer_video_packet(VeilVideoWriter *writer, void *packet, VeilFailure *failure);
/* Flushes the video encoder and opens a new one for `streams` with
   `options` (the writer's own): its next frame is a keyframe that references
   nothing before it. */
int veil_writer_restart_video(VeilVideoWriter *writer, const VeilStreams *streams, const VeilWriterOptions *options,
                              VeilFailure *failure);
/* The parameter sets the video encoder made, and those the output holds
   (an mp4 has one set for every GOP), for Swift to compare after a restart. */
void veil_writer_parameter_sets(const VeilVideoWriter *writer, VeilBytes *encoder, VeilBytes *output);

/* Quiet FFmpeg's own logging (errors reach the caller as VeilFailure). */
void veil_video_quiet(void);

/* The versions of the FFmpeg libraries loaded, for `veil --version`
   (av_version_info, LIBAVFORMAT/LIBAVCODEC_VERSION_INT). */
const char *veil_ffmpeg_version(void);
unsigned veil_avformat_version(void);
unsigned veil_avcodec_version(void);

#endif
