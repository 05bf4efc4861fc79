// The writer: encodes packed RGB frames (H.264 by default) and copies the
// other streams' packets, mirroring an input's streams copied at open.
#include "veil_shim.h"
#include <libavutil/pixdesc.h>

#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <stdio.h>
#include <string.h>

struct VeilVideoWriter {
    AVFormatContext *format;
    VeilAudioTranscoder **transcoders; /* per input stream, NULL when copied or dropped */
    AVCodecContext *encoder;
    AVStream *video;
    struct SwsContext *from_rgb;
    AVFrame *frame;
    AVFrame *rgb;        /* aligned, padded copy of the caller's RGB */
    AVPacket *packet;
    int *stream_map;     /* input stream index -> output index, -1 dropped */
    AVRational *input_time_bases;
    int stream_count;
    int copied;
    int transcoded;
    int width, height;
    int header_written;
    /* What a restarted encoder is opened from (veil_writer_restart_video):
       the caller's streams (alive as long as the writer) and a copy of the
       options' strings. */
    const VeilStreams *streams;
    VeilWriterOptions options;
    char *option_strings[7];
};

int veil_drain_encoder(AVFormatContext *format, AVCodecContext *encoder, AVStream *stream,
                       AVPacket *packet, VeilFailure *failure) {
    for (;;) {
        int rc = avcodec_receive_packet(encoder, packet);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
            return 0;
        if (rc < 0) {
            veil_fail(failure, VEIL_FAILED_ENCODE, rc);
            return rc;
        }
        /* A video packet without a duration makes the mp4 muxer's edit list
           end one frame early: give each the frame period. */
        if (packet->duration <= 0 && encoder->codec_type == AVMEDIA_TYPE_VIDEO && encoder->framerate.num > 0)
            packet->duration = av_rescale_q(1, av_inv_q(encoder->framerate), encoder->time_base);
        av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
        packet->stream_index = stream->index;
        if ((rc = av_interleaved_write_frame(format, packet)) < 0) {
            veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
            return rc;
        }
    }
}

int veil_video_encoder_exists(const char *name) {
    const AVCodec *codec = name ? avcodec_find_encoder_by_name(name) : NULL;
    return codec && codec->type == AVMEDIA_TYPE_VIDEO;
}

const char *veil_video_encoder_for(const char *name) {
    const AVCodecDescriptor *d = avcodec_descriptor_get_by_name(name);
    const AVCodec *codec = d ? avcodec_find_encoder(d->id) : NULL;
    return codec ? codec->name : NULL;
}

int veil_video_encoder_takes(const char *encoder, const char *pixel_format) {
    const AVCodec *codec = avcodec_find_encoder_by_name(encoder);
    enum AVPixelFormat format = av_get_pix_fmt(pixel_format);
    if (!codec || format == AV_PIX_FMT_NONE) return 0;
    if (!codec->pix_fmts) return format == AV_PIX_FMT_YUV420P;
    for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++)
        if (*p == format) return 1;
    return 0;
}

const char *veil_video_encoder_first_format(const char *encoder) {
    const AVCodec *codec = avcodec_find_encoder_by_name(encoder);
    return codec && codec->pix_fmts ? av_get_pix_fmt_name(codec->pix_fmts[0]) : NULL;
}

static void set_x264_options(AVCodecContext *encoder, const VeilWriterOptions *o) {
    if (o->crf >= 0) {
        char value[16];
        snprintf(value, sizeof(value), "%d", o->crf);
        av_opt_set(encoder->priv_data, "crf", value, 0);
    }
    if (o->preset && *o->preset) av_opt_set(encoder->priv_data, "preset", o->preset, 0);
    if (o->tune && *o->tune) av_opt_set(encoder->priv_data, "tune", o->tune, 0);
    if (o->x264_params && *o->x264_params) av_opt_set(encoder->priv_data, "x264-params", o->x264_params, 0);
}

/* The video encoder, sized and timed like the input (w->width/height set). */
static int open_encoder(VeilVideoWriter *w, const VeilStreams *s, const VeilWriterOptions *o,
                        VeilFailure *failure) {
    const AVCodec *codec = o->codec ? avcodec_find_encoder_by_name(o->codec) : NULL;
    enum AVPixelFormat format = o->pixel_format ? av_get_pix_fmt(o->pixel_format) : AV_PIX_FMT_NONE;
    if (!codec || format == AV_PIX_FMT_NONE) {
        veil_fail(failure, VEIL_FAILED_NO_ENCODER, 0);
        return AVERROR_ENCODER_NOT_FOUND;
    }
    const VeilStreamCopy *in = &s->streams[s->video];
    w->encoder = avcodec_alloc_context3(codec);
    if (!w->encoder) return AVERROR(ENOMEM);
    w->encoder->width = w->width;
    w->encoder->height = w->height;
    w->encoder->pix_fmt = format;
    w->encoder->time_base = in->time_base;
    if (s->frame_rate.num) w->encoder->framerate = s->frame_rate;
    w->encoder->sample_aspect_ratio = s->sample_aspect_ratio;
    w->encoder->thread_count = o->threads;
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER)
        w->encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    set_x264_options(w->encoder, o);
    int rc = avcodec_open2(w->encoder, codec, NULL);
    if (rc < 0) veil_fail(failure, VEIL_FAILED_OPEN_ENCODER, rc);
    return rc;
}

/* The video encoder and its output stream, sized and timed like the input. */
static int open_video(VeilVideoWriter *w, const VeilStreams *s, const VeilWriterOptions *o,
                      VeilFailure *failure) {
    const VeilStreamCopy *in = &s->streams[s->video];
    w->width = in->parameters->width;
    w->height = in->parameters->height;
    w->video = avformat_new_stream(w->format, NULL);
    if (!w->video) return AVERROR(ENOMEM);
    int rc = open_encoder(w, s, o, failure);
    if (rc < 0) return rc;
    avcodec_parameters_from_context(w->video->codecpar, w->encoder);
    w->video->time_base = w->encoder->time_base;
    w->video->avg_frame_rate = s->frame_rate;
    if (s->display_matrix) {
        uint8_t *copy = av_stream_new_side_data(w->video, AV_PKT_DATA_DISPLAYMATRIX, s->display_matrix_size);
        if (copy) memcpy(copy, s->display_matrix, s->display_matrix_size);
    }
    return 0;
}

/* The options kept for a restart: the caller's strings die with its call. */
static int keep_options(VeilVideoWriter *w, const VeilStreams *s, const VeilWriterOptions *o) {
    w->streams = s;
    w->options = *o;
    const char **fields[7] = {&w->options.format, &w->options.codec, &w->options.preset, &w->options.tune,
                              &w->options.x264_params, &w->options.muxer_options, &w->options.pixel_format};
    for (int i = 0; i < 7; i++) {
        if (!*fields[i]) continue;
        if (!(w->option_strings[i] = strdup(*fields[i]))) return AVERROR(ENOMEM);
        *fields[i] = w->option_strings[i];
    }
    return 0;
}

int veil_streams_count(const VeilStreams *s) { return s->count; }
int veil_streams_video(const VeilStreams *s) { return s->video; }
int veil_streams_is_audio(const VeilStreams *s, int i) { return s->streams[i].parameters->codec_type == AVMEDIA_TYPE_AUDIO; }

int veil_muxer_takes(const char *format, const char *url, const VeilStreams *s, int i) {
    AVFormatContext *out = NULL;
    if (avformat_alloc_output_context2(&out, NULL, format && *format ? format : NULL, url) < 0 || !out) return 0;
    int takes = avformat_query_codec(out->oformat, s->streams[i].parameters->codec_id, FF_COMPLIANCE_NORMAL) == 1;
    avformat_free_context(out);
    return takes;
}

/* The other streams, each as its action says (an audio stream whose
   re-encoder cannot open is left out). */
static int map_other_streams(VeilVideoWriter *w, const VeilStreams *s, const VeilWriterOptions *o) {
    w->stream_count = s->count;
    w->stream_map = calloc(s->count, sizeof(int));
    w->transcoders = calloc(s->count, sizeof(VeilAudioTranscoder *));
    w->input_time_bases = calloc(s->count, sizeof(AVRational));
    if (!w->stream_map || !w->transcoders || !w->input_time_bases) return AVERROR(ENOMEM);
    for (int i = 0; i < s->count; i++) {
        w->stream_map[i] = -1;
        w->input_time_bases[i] = s->streams[i].time_base;
        int action = o->stream_actions && i < o->stream_action_count ? o->stream_actions[i] : VEIL_STREAM_DROP;
        if (i == s->video || action == VEIL_STREAM_DROP) continue;
        const AVCodecParameters *par = s->streams[i].parameters;
        if (action == VEIL_STREAM_REENCODE) {
            if ((w->transcoders[i] = veil_audio_open(w->format, &s->streams[i]))) {
                w->stream_map[i] = veil_audio_stream_index(w->transcoders[i]);
                w->transcoded++;
            }
            continue;
        }
        AVStream *dst = avformat_new_stream(w->format, NULL);
        if (!dst) return AVERROR(ENOMEM);
        avcodec_parameters_copy(dst->codecpar, par);
        dst->codecpar->codec_tag = 0;
        dst->time_base = s->streams[i].time_base;
        w->stream_map[i] = dst->index;
        w->copied++;
    }
    return 0;
}

static int start_output(VeilVideoWriter *w, const char *url, const char *muxer_options, VeilFailure *failure) {
    int rc;
    AVDictionary *options = NULL;
    if (muxer_options && *muxer_options && (rc = av_dict_parse_string(&options, muxer_options, "=", ":", 0)) < 0) {
        veil_fail(failure, VEIL_FAILED_MUXER_OPTIONS, rc);
        av_dict_free(&options);
        return rc;
    }
    if (!(w->format->oformat->flags & AVFMT_NOFILE) && (rc = avio_open(&w->format->pb, url, AVIO_FLAG_WRITE)) < 0) {
        veil_fail(failure, VEIL_FAILED_OPEN_OUTPUT, rc);
        av_dict_free(&options);
        return rc;
    }
    rc = avformat_write_header(w->format, &options);
    av_dict_free(&options); /* what the muxer did not take (another muxer's options) is ignored */
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_START_OUTPUT, rc);
        return rc;
    }
    w->header_written = 1;
    return 0;
}

/* The frames and the converter from packed RGB to the encoder's format.
   Chroma is taken at each 2x2 block's first pixel (SWS_POINT), not
   averaged (SWS_BILINEAR): the reader's YUV to RGB repeats each chroma
   sample over its block, so a pixel no cover touched gets back the chroma
   it came with (round trip of 1080p H.264 frames: PSNR u/v 63.9/66.6 dB
   against 61.6/61.5, luma the same 49.2; pan-small through veil, mean
   |U, V| change away from faces 0.581 against 0.596), and this FFmpeg's
   RGB24 to 4:2:0 took 5.7 ms a 1080p frame against 9.4 (AVX2 EPYC,
   ffmpeg -sws_flags): the writer's conversion was a tenth of a live
   1080p run's CPU, 0.77 of x264's own time, now 0.47. Since then it
   converts only frames without a decoder picture to write over
   (veil_writer_frame_over): inputs that are not 8-bit 4:2:0. */
static int allocate_frames(VeilVideoWriter *w) {
    w->frame = av_frame_alloc();
    w->rgb = av_frame_alloc();
    w->packet = av_packet_alloc();
    if (!w->frame || !w->rgb || !w->packet) return AVERROR(ENOMEM);
    w->frame->format = w->encoder->pix_fmt;
    w->frame->width = w->width;
    w->frame->height = w->height;
    w->rgb->format = AV_PIX_FMT_RGB24;
    w->rgb->width = w->width;
    w->rgb->height = w->height;
    if (av_frame_get_buffer(w->frame, 0) < 0 || av_frame_get_buffer(w->rgb, 64) < 0) return AVERROR(ENOMEM);
    w->from_rgb = sws_getContext(w->width, w->height, AV_PIX_FMT_RGB24, w->width, w->height,
                                 w->encoder->pix_fmt, SWS_POINT, NULL, NULL, NULL);
    return w->from_rgb ? 0 : AVERROR(EINVAL);
}

VeilVideoWriter *veil_writer_open(const char *url, const VeilStreams *s, const VeilWriterOptions *o,
                                  VeilFailure *failure) {
    VeilVideoWriter *w = calloc(1, sizeof(*w));
    if (!w) return NULL;
    int rc = avformat_alloc_output_context2(&w->format, NULL, o->format && *o->format ? o->format : NULL, url);
    if (rc < 0 || !w->format) {
        veil_fail(failure, VEIL_FAILED_UNKNOWN_OUTPUT_FORMAT, 0);
        free(w);
        return NULL;
    }
    if ((rc = keep_options(w, s, o)) < 0 ||
        (rc = open_video(w, s, o, failure)) < 0 ||
        (rc = map_other_streams(w, s, o)) < 0 ||
        (rc = start_output(w, url, o->muxer_options, failure)) < 0 ||
        (rc = allocate_frames(w)) < 0) {
        if (failure && !failure->step) veil_fail(failure, VEIL_FAILED_OPEN_OUTPUT, rc);
        veil_writer_close(w, 0, NULL);
        return NULL;
    }
    return w;
}

static int drain(VeilVideoWriter *w, VeilFailure *failure) {
    return veil_drain_encoder(w->format, w->encoder, w->video, w->packet, failure);
}

int veil_writer_frame(VeilVideoWriter *w, const uint8_t *rgb, int64_t pts, VeilFailure *failure) {
    int rc = av_frame_make_writable(w->frame);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_PREPARE_FRAME, rc);
        return rc;
    }
    av_image_copy_plane(w->rgb->data[0], w->rgb->linesize[0], rgb, w->width * 3, w->width * 3, w->height);
    sws_scale(w->from_rgb, (const uint8_t *const *)w->rgb->data, w->rgb->linesize, 0, w->height, w->frame->data, w->frame->linesize);
    w->frame->pts = pts;
    if ((rc = avcodec_send_frame(w->encoder, w->frame)) < 0) {
        veil_fail(failure, VEIL_FAILED_ENCODE_VIDEO, rc);
        return rc;
    }
    return drain(w, failure);
}

/* Packed RGB to 8-bit 4:2:0: BT.601 at studio range from full-range RGB,
   what swscale's defaults convert with (and the reader's RGB came from), in
   16-bit fixed point. Chroma is the 2x2 block's mean: the covers' soft edges
   keep their colour. */
#define VEIL_LUMA(p) (uint8_t)((16829 * (p)[0] + 33039 * (p)[1] + 6416 * (p)[2] + (16 << 16) + (1 << 15)) >> 16)

static inline void block_chroma(uint8_t *u, uint8_t *v, int r, int g, int b) {
    *u = (uint8_t)((-9714 * r - 19070 * g + 28784 * b + (128 << 18) + (1 << 17)) >> 18);
    *v = (uint8_t)((28784 * r - 24103 * g - 4681 * b + (128 << 18) + (1 << 17)) >> 18);
}

/* Columns [x, end) of one row pair (x even; rows r0 and r1, the same row at
   an odd height's end); an odd width's last column is a block of itself. */
static void convert_span(const uint8_t *r0, const uint8_t *r1, uint8_t *l0, uint8_t *l1, uint8_t *u, uint8_t *v,
                         int x, int end) {
    for (; x + 1 < end; x += 2) {
        const uint8_t *p = r0 + 3 * x, *q = r1 + 3 * x;
        l0[x] = VEIL_LUMA(p); l0[x + 1] = VEIL_LUMA(p + 3); l1[x] = VEIL_LUMA(q); l1[x + 1] = VEIL_LUMA(q + 3);
        block_chroma(u + x / 2, v + x / 2, p[0] + p[3] + q[0] + q[3], p[1] + p[4] + q[1] + q[4], p[2] + p[5] + q[2] + q[5]);
    }
    if (x < end) {
        const uint8_t *p = r0 + 3 * x, *q = r1 + 3 * x;
        l0[x] = VEIL_LUMA(p); l1[x] = VEIL_LUMA(q);
        block_chroma(u + x / 2, v + x / 2, 2 * (p[0] + q[0]), 2 * (p[1] + q[1]), 2 * (p[2] + q[2]));
    }
}

typedef struct { int lo, hi; } VeilSpan;

/* The rectangles (x, y, width, height), clipped and widened to whole 2x2
   blocks, converted row pair by row pair with the spans that overlap merged:
   a crowd's reaches overlap, and each pixel is converted once (69 faces'
   reaches over 1.4 of a 1080p frame's 2.1 megapixels: 1.8 ms against 3.4
   rectangle by rectangle; the whole frame 3.7 ms, swscale's 3.9-4.2). */
static int convert_rects(const uint8_t *rgb, int width, int height, AVFrame *f, const int32_t *rects, int n) {
    int32_t *box = malloc(sizeof(int32_t) * 4 * (size_t)(n > 0 ? n : 1));
    VeilSpan *spans = malloc(sizeof(VeilSpan) * (size_t)(n > 0 ? n : 1));
    if (!box || !spans) {
        free(box);
        free(spans);
        return AVERROR(ENOMEM);
    }
    int m = 0, top = height, bottom = 0;
    for (int i = 0; i < n; i++) {
        const int32_t *q = rects + 4 * i;
        int64_t x0 = q[0] > 0 ? q[0] : 0, y0 = q[1] > 0 ? q[1] : 0;
        int64_t x1 = (int64_t)q[0] + q[2], y1 = (int64_t)q[1] + q[3];
        if (x1 > width) x1 = width;
        if (y1 > height) y1 = height;
        if (x0 >= x1 || y0 >= y1) continue;
        int32_t *b = box + 4 * m++;
        b[0] = (int32_t)x0 & ~1; b[1] = (int32_t)y0 & ~1; b[2] = (int32_t)x1; b[3] = (int32_t)y1;
        if (b[1] < top) top = b[1];
        if (b[3] > bottom) bottom = b[3];
    }
    const size_t stride = (size_t)width * 3;
    for (int y = top; y < bottom; y += 2) {
        int k = 0;
        for (int i = 0; i < m; i++) { /* the spans of this row pair, sorted by their start */
            const int32_t *b = box + 4 * i;
            if (b[1] > y || b[3] <= y) continue;
            int j = k++;
            while (j > 0 && spans[j - 1].lo > b[0]) { spans[j] = spans[j - 1]; j--; }
            spans[j] = (VeilSpan){b[0], b[2]};
        }
        if (!k) continue;
        const int y2 = y + 1 < height ? y + 1 : y;
        const uint8_t *r0 = rgb + (size_t)y * stride, *r1 = rgb + (size_t)y2 * stride;
        uint8_t *l0 = f->data[0] + (size_t)y * f->linesize[0], *l1 = f->data[0] + (size_t)y2 * f->linesize[0];
        uint8_t *u = f->data[1] + (size_t)(y / 2) * f->linesize[1], *v = f->data[2] + (size_t)(y / 2) * f->linesize[2];
        int lo = spans[0].lo, hi = spans[0].hi;
        for (int i = 1; i <= k; i++) {
            if (i < k && spans[i].lo <= hi) {
                if (spans[i].hi > hi) hi = spans[i].hi;
                continue;
            }
            convert_span(r0, r1, l0, l1, u, v, lo, hi);
            if (i < k) { lo = spans[i].lo; hi = spans[i].hi; }
        }
    }
    free(box);
    free(spans);
    return 0;
}

int veil_writer_frame_over(VeilVideoWriter *w, const uint8_t *rgb, void *picture, const int32_t *rects, int rect_count,
                           int64_t pts, VeilFailure *failure) {
    const AVFrame *p = picture;
    if (!p || p->format != AV_PIX_FMT_YUV420P || w->frame->format != AV_PIX_FMT_YUV420P ||
        p->width != w->width || p->height != w->height)
        return veil_writer_frame(w, rgb, pts, failure);
    int rc = av_frame_make_writable(w->frame);
    if (rc >= 0) rc = av_frame_copy(w->frame, p);
    if (rc >= 0) rc = convert_rects(rgb, w->width, w->height, w->frame, rects, rect_count);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_PREPARE_FRAME, rc);
        return rc;
    }
    w->frame->pts = pts;
    if ((rc = avcodec_send_frame(w->encoder, w->frame)) < 0) {
        veil_fail(failure, VEIL_FAILED_ENCODE_VIDEO, rc);
        return rc;
    }
    return drain(w, failure);
}

int veil_writer_packet(VeilVideoWriter *w, void *packet, VeilFailure *failure) {
    AVPacket *p = packet;
    int index = p->stream_index;
    if (index < 0 || index >= w->stream_count || w->stream_map[index] < 0)
        return 0;
    int rc;
    /* A packet the muxer's filter or the audio decoder refuses as invalid is
       said so (VEIL_PACKET_REFUSED); what to do with it is Swift's. */
    if (w->transcoders[index]) {
        rc = veil_audio_feed(w->format, w->transcoders[index], p);
        if (rc == AVERROR_INVALIDDATA) return VEIL_PACKET_REFUSED;
        if (rc < 0) veil_fail(failure, VEIL_FAILED_REENCODE_AUDIO, rc);
        return rc;
    }
    AVStream *dst = w->format->streams[w->stream_map[index]];
    AVPacket *copy = av_packet_clone(p);
    if (!copy) return AVERROR(ENOMEM);
    av_packet_rescale_ts(copy, w->input_time_bases[index], dst->time_base);
    copy->stream_index = dst->index;
    copy->pos = -1;
    rc = av_interleaved_write_frame(w->format, copy);
    av_packet_free(&copy);
    if (rc == AVERROR_INVALIDDATA) return VEIL_PACKET_REFUSED;
    if (rc < 0) veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
    return rc;
}

/* Flushes the encoders and writes the trailer. */
static int finish(VeilVideoWriter *w, VeilFailure *failure) {
    avcodec_send_frame(w->encoder, NULL);
    int rc = drain(w, failure);
    for (int i = 0; rc == 0 && i < w->stream_count; i++) {
        if (w->transcoders[i] && (rc = veil_audio_feed(w->format, w->transcoders[i], NULL)) < 0)
            veil_fail(failure, VEIL_FAILED_FINISH_AUDIO, rc);
    }
    int trailer = av_write_trailer(w->format);
    if (rc == 0 && trailer < 0) {
        veil_fail(failure, VEIL_FAILED_FINISH_OUTPUT, trailer);
        rc = trailer;
    }
    return rc;
}

int veil_writer_close(VeilVideoWriter *w, int complete, VeilFailure *failure) {
    if (!w) return 0;
    int rc = complete && w->header_written ? finish(w, failure) : 0;
    if (w->format && w->format->pb && !(w->format->oformat->flags & AVFMT_NOFILE)) {
        /* Buffered bytes reach the file here: a full disk shows now or never. */
        avio_flush(w->format->pb);
        int failed = w->format->pb->error;
        int closed = avio_closep(&w->format->pb);
        if (complete && rc == 0 && (failed < 0 || closed < 0)) {
            rc = failed < 0 ? failed : closed;
            veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
        }
    }
    sws_freeContext(w->from_rgb);
    av_frame_free(&w->rgb);
    av_frame_free(&w->frame);
    av_packet_free(&w->packet);
    avcodec_free_context(&w->encoder);
    avformat_free_context(w->format);
    for (int i = 0; w->transcoders && i < w->stream_count; i++) veil_audio_free(w->transcoders[i]);
    free(w->transcoders);
    free(w->stream_map);
    free(w->input_time_bases);
    for (int i = 0; i < 7; i++) free(w->option_strings[i]);
    free(w);
    return rc;
}

int veil_writer_copied_streams(const VeilVideoWriter *w) { return w->copied + w->transcoded; }
int veil_writer_transcoded_streams(const VeilVideoWriter *w) { return w->transcoded; }

/* ---- Splicing a re-render (VideoSplice): copied GOPs beside re-encoded ones ---- */

/* A copied packet holds NAL units after 4-byte lengths (an mp4's); the muxer
   takes the encoder's (start codes) and writes lengths again: each length
   becomes a start code, the same size, so the sample is written as it was. */
static int lengths_to_start_codes(AVPacket *p) {
    int rc = av_packet_make_writable(p);
    if (rc < 0) return rc;
    for (int at = 0; at < p->size;) {
        if (p->size - at < 4) return AVERROR_INVALIDDATA;
        uint32_t length = (uint32_t)p->data[at] << 24 | p->data[at + 1] << 16 | p->data[at + 2] << 8 | p->data[at + 3];
        if (length == 0 || length > (uint32_t)(p->size - at - 4)) return AVERROR_INVALIDDATA;
        p->data[at] = p->data[at + 1] = p->data[at + 2] = 0;
        p->data[at + 3] = 1;
        at += 4 + (int)length;
    }
    return 0;
}

int veil_writer_video_packet(VeilVideoWriter *w, void *packet, VeilFailure *failure) {
    const AVPacket *p = packet;
    AVPacket *copy = av_packet_clone(p);
    if (!copy) return AVERROR(ENOMEM);
    int rc = lengths_to_start_codes(copy);
    if (rc < 0) {
        av_packet_free(&copy);
        veil_fail(failure, VEIL_FAILED_COPIED_NOT_AVCC, rc);
        return rc;
    }
    av_packet_rescale_ts(copy, p->time_base, w->video->time_base);
    copy->stream_index = w->video->index;
    copy->pos = -1;
    rc = av_interleaved_write_frame(w->format, copy);
    av_packet_free(&copy);
    if (rc < 0) veil_fail(failure, VEIL_FAILED_WRITE_COPIED, rc);
    return rc;
}

int veil_writer_restart_video(VeilVideoWriter *w, VeilFailure *failure) {
    avcodec_send_frame(w->encoder, NULL);
    int rc = drain(w, failure);
    if (rc < 0) return rc;
    avcodec_free_context(&w->encoder);
    if ((rc = open_encoder(w, w->streams, &w->options, failure)) < 0) return rc;
    /* The file has one set of parameter sets (an mp4's avcC): a new encoder
       must make the same, or its frames would not decode with them. */
    const AVCodecParameters *par = w->video->codecpar;
    if (w->encoder->extradata_size != par->extradata_size ||
        (par->extradata_size && memcmp(w->encoder->extradata, par->extradata, par->extradata_size))) {
        veil_fail(failure, VEIL_FAILED_RESTART_PARAMETERS, 0);
        return AVERROR(EINVAL);
    }
    return 0;
}

int veil_encoder_headers(const VeilStreams *s, const VeilWriterOptions *o, uint8_t **data, int *size,
                         VeilFailure *failure) {
    *data = NULL;
    *size = 0;
    VeilVideoWriter w = {0};
    int rc = avformat_alloc_output_context2(&w.format, NULL, o->format, o->format ? NULL : "headers.mp4");
    if (rc < 0 || !w.format) {
        veil_fail(failure, VEIL_FAILED_UNKNOWN_OUTPUT_FORMAT, rc);
        return rc < 0 ? rc : AVERROR(EINVAL);
    }
    w.width = s->streams[s->video].parameters->width;
    w.height = s->streams[s->video].parameters->height;
    rc = open_encoder(&w, s, o, failure);
    if (rc >= 0 && w.encoder->extradata_size > 0) {
        if ((*data = malloc(w.encoder->extradata_size))) {
            memcpy(*data, w.encoder->extradata, w.encoder->extradata_size);
            *size = w.encoder->extradata_size;
        } else {
            rc = AVERROR(ENOMEM);
        }
    }
    avcodec_free_context(&w.encoder);
    avformat_free_context(w.format);
    return rc;
}
