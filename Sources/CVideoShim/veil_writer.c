// The writer: encodes frames (the decoder's pictures with the covers drawn
// into them by Swift, or packed RGB through swscale) and copies the other
// streams' packets, mirroring an input's streams copied at open. Which
// streams, which options, which frames and packets: Swift's (VideoWriter).
#include "veil_shim.h"

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
};

int veil_drain_encoder(AVFormatContext *format, AVCodecContext *encoder, AVStream *stream,
                       AVPacket *packet, VeilFailure *failure) {
    for (;;) {
        int rc = FF->avcodec_receive_packet(encoder, packet);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
            return 0;
        if (rc < 0) {
            veil_fail(failure, VEIL_FAILED_ENCODE, rc);
            return rc;
        }
        /* A video packet without a duration makes the mp4 muxer's edit list
           end one frame early: give each the frame period. */
        if (packet->duration <= 0 && encoder->codec_type == AVMEDIA_TYPE_VIDEO && encoder->framerate.num > 0)
            packet->duration = FF->av_rescale_q(1, av_inv_q(encoder->framerate), encoder->time_base);
        FF->av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
        packet->stream_index = stream->index;
        if ((rc = FF->av_interleaved_write_frame(format, packet)) < 0) {
            veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
            return rc;
        }
    }
}

int veil_video_encoder_exists(const char *name) {
    const AVCodec *codec = name ? FF->avcodec_find_encoder_by_name(name) : NULL;
    return codec && codec->type == AVMEDIA_TYPE_VIDEO;
}

const char *veil_video_encoder_for(const char *name) {
    const AVCodecDescriptor *d = FF->avcodec_descriptor_get_by_name(name);
    const AVCodec *codec = d ? FF->avcodec_find_encoder(d->id) : NULL;
    return codec ? codec->name : NULL;
}

int veil_video_encoder_formats(const char *encoder, const char **names, int capacity) {
    const AVCodec *codec = FF->avcodec_find_encoder_by_name(encoder);
    int n = 0;
    for (const enum AVPixelFormat *p = codec ? codec->pix_fmts : NULL; p && *p != AV_PIX_FMT_NONE && n < capacity; p++)
        names[n++] = FF->av_get_pix_fmt_name(*p);
    return n;
}

/* The video encoder, sized and timed like the input (w->width/height set). */
static int open_encoder(VeilVideoWriter *w, const VeilStreams *s, const VeilWriterOptions *o,
                        VeilFailure *failure) {
    const AVCodec *codec = o->codec ? FF->avcodec_find_encoder_by_name(o->codec) : NULL;
    enum AVPixelFormat format = o->pixel_format ? FF->av_get_pix_fmt(o->pixel_format) : AV_PIX_FMT_NONE;
    if (!codec || format == AV_PIX_FMT_NONE) {
        veil_fail(failure, VEIL_FAILED_NO_ENCODER, 0);
        return AVERROR_ENCODER_NOT_FOUND;
    }
    const VeilStreamCopy *in = &s->streams[s->video];
    w->encoder = FF->avcodec_alloc_context3(codec);
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
    /* The encoder's own options, in Swift's order (one it does not know is ignored). */
    for (int i = 0; i < o->encoder_option_count; i++)
        FF->av_opt_set(w->encoder->priv_data, o->encoder_options[2 * i], o->encoder_options[2 * i + 1], 0);
    int rc = FF->avcodec_open2(w->encoder, codec, NULL);
    if (rc < 0) veil_fail(failure, VEIL_FAILED_OPEN_ENCODER, rc);
    return rc;
}

/* The video encoder and its output stream, sized and timed like the input. */
static int open_video(VeilVideoWriter *w, const VeilStreams *s, const VeilWriterOptions *o,
                      VeilFailure *failure) {
    const VeilStreamCopy *in = &s->streams[s->video];
    w->width = in->parameters->width;
    w->height = in->parameters->height;
    w->video = FF->avformat_new_stream(w->format, NULL);
    if (!w->video) return AVERROR(ENOMEM);
    int rc = open_encoder(w, s, o, failure);
    if (rc < 0) return rc;
    FF->avcodec_parameters_from_context(w->video->codecpar, w->encoder);
    w->video->time_base = w->encoder->time_base;
    w->video->avg_frame_rate = s->frame_rate;
    if (s->display_matrix) {
        uint8_t *copy = FF->av_stream_new_side_data(w->video, AV_PKT_DATA_DISPLAYMATRIX, s->display_matrix_size);
        if (copy) memcpy(copy, s->display_matrix, s->display_matrix_size);
    }
    return 0;
}

int veil_streams_count(const VeilStreams *s) { return s->count; }
int veil_streams_video(const VeilStreams *s) { return s->video; }
int veil_streams_is_audio(const VeilStreams *s, int i) { return s->streams[i].parameters->codec_type == AVMEDIA_TYPE_AUDIO; }

int veil_muxer_takes(const char *format, const char *url, const VeilStreams *s, int i) {
    AVFormatContext *out = NULL;
    if (FF->avformat_alloc_output_context2(&out, NULL, format && *format ? format : NULL, url) < 0 || !out) return 0;
    int takes = FF->avformat_query_codec(out->oformat, s->streams[i].parameters->codec_id, FF_COMPLIANCE_NORMAL) == 1;
    FF->avformat_free_context(out);
    return takes;
}

/* The table from input streams to the output's: none mapped yet. */
static int allocate_stream_map(VeilVideoWriter *w, const VeilStreams *s) {
    w->stream_count = s->count;
    w->stream_map = calloc(s->count, sizeof(int));
    w->transcoders = calloc(s->count, sizeof(VeilAudioTranscoder *));
    w->input_time_bases = calloc(s->count, sizeof(AVRational));
    if (!w->stream_map || !w->transcoders || !w->input_time_bases) return AVERROR(ENOMEM);
    for (int i = 0; i < s->count; i++) {
        w->stream_map[i] = -1;
        w->input_time_bases[i] = s->streams[i].time_base;
    }
    return 0;
}

int veil_writer_copy_stream(VeilVideoWriter *w, const VeilStreams *s, int i) {
    AVStream *dst = FF->avformat_new_stream(w->format, NULL);
    if (!dst) return AVERROR(ENOMEM);
    FF->avcodec_parameters_copy(dst->codecpar, s->streams[i].parameters);
    dst->codecpar->codec_tag = 0;
    dst->time_base = s->streams[i].time_base;
    w->copied++;
    return w->stream_map[i] = dst->index;
}

int veil_writer_reencode_stream(VeilVideoWriter *w, const VeilStreams *s, int i) {
    if (!(w->transcoders[i] = veil_audio_open(w->format, &s->streams[i]))) return AVERROR_ENCODER_NOT_FOUND;
    w->transcoded++;
    return w->stream_map[i] = veil_audio_stream_index(w->transcoders[i]);
}

static int start_output(VeilVideoWriter *w, const char *url, const char *muxer_options, VeilFailure *failure) {
    int rc;
    AVDictionary *options = NULL;
    if (muxer_options && *muxer_options && (rc = FF->av_dict_parse_string(&options, muxer_options, "=", ":", 0)) < 0) {
        veil_fail(failure, VEIL_FAILED_MUXER_OPTIONS, rc);
        FF->av_dict_free(&options);
        return rc;
    }
    if (!(w->format->oformat->flags & AVFMT_NOFILE) && (rc = FF->avio_open(&w->format->pb, url, AVIO_FLAG_WRITE)) < 0) {
        veil_fail(failure, VEIL_FAILED_OPEN_OUTPUT, rc);
        FF->av_dict_free(&options);
        return rc;
    }
    rc = FF->avformat_write_header(w->format, &options);
    FF->av_dict_free(&options); /* what the muxer did not take (another muxer's options) is ignored */
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
   (veil_writer_picture, the covers converted in Swift: YUV420Covers):
   inputs that are not 8-bit 4:2:0. */
static int allocate_frames(VeilVideoWriter *w) {
    w->frame = FF->av_frame_alloc();
    w->rgb = FF->av_frame_alloc();
    w->packet = FF->av_packet_alloc();
    if (!w->frame || !w->rgb || !w->packet) return AVERROR(ENOMEM);
    w->frame->format = w->encoder->pix_fmt;
    w->frame->width = w->width;
    w->frame->height = w->height;
    w->rgb->format = AV_PIX_FMT_RGB24;
    w->rgb->width = w->width;
    w->rgb->height = w->height;
    if (FF->av_frame_get_buffer(w->frame, 0) < 0 || FF->av_frame_get_buffer(w->rgb, 64) < 0) return AVERROR(ENOMEM);
    w->from_rgb = FF->sws_getContext(w->width, w->height, AV_PIX_FMT_RGB24, w->width, w->height,
                                 w->encoder->pix_fmt, SWS_POINT, NULL, NULL, NULL);
    return w->from_rgb ? 0 : AVERROR(EINVAL);
}

VeilVideoWriter *veil_writer_open(const char *url, const VeilStreams *s, const VeilWriterOptions *o,
                                  VeilFailure *failure) {
    VeilVideoWriter *w = calloc(1, sizeof(*w));
    if (!w) return NULL;
    int rc = FF->avformat_alloc_output_context2(&w->format, NULL, o->format && *o->format ? o->format : NULL, url);
    if (rc < 0 || !w->format) {
        veil_fail(failure, VEIL_FAILED_UNKNOWN_OUTPUT_FORMAT, 0);
        free(w);
        return NULL;
    }
    if ((rc = open_video(w, s, o, failure)) < 0 || (rc = allocate_stream_map(w, s)) < 0) {
        if (failure && !failure->step) veil_fail(failure, VEIL_FAILED_OPEN_OUTPUT, rc);
        veil_writer_close(w, 0, NULL);
        return NULL;
    }
    return w;
}

int veil_writer_start(VeilVideoWriter *w, const char *url, const char *muxer_options, VeilFailure *failure) {
    int rc = start_output(w, url, muxer_options, failure);
    if (rc >= 0 && (rc = allocate_frames(w)) < 0) veil_fail(failure, VEIL_FAILED_OPEN_OUTPUT, rc);
    return rc;
}

static int drain(VeilVideoWriter *w, VeilFailure *failure) {
    return veil_drain_encoder(w->format, w->encoder, w->video, w->packet, failure);
}

int veil_writer_frame(VeilVideoWriter *w, const uint8_t *rgb, int64_t pts, VeilFailure *failure) {
    int rc = FF->av_frame_make_writable(w->frame);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_PREPARE_FRAME, rc);
        return rc;
    }
    FF->av_image_copy_plane(w->rgb->data[0], w->rgb->linesize[0], rgb, w->width * 3, w->width * 3, w->height);
    FF->sws_scale(w->from_rgb, (const uint8_t *const *)w->rgb->data, w->rgb->linesize, 0, w->height, w->frame->data, w->frame->linesize);
    return veil_writer_send(w, pts, failure);
}

int veil_writer_picture(VeilVideoWriter *w, const void *picture, VeilPlanes *planes, VeilFailure *failure) {
    int rc = FF->av_frame_make_writable(w->frame);
    if (rc >= 0) rc = FF->av_frame_copy(w->frame, picture);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_PREPARE_FRAME, rc);
        return rc;
    }
    for (int i = 0; i < 3; i++) {
        planes->data[i] = w->frame->data[i];
        planes->linesize[i] = w->frame->linesize[i];
    }
    return 0;
}

int veil_writer_send(VeilVideoWriter *w, int64_t pts, VeilFailure *failure) {
    w->frame->pts = pts;
    int rc = FF->avcodec_send_frame(w->encoder, w->frame);
    if (rc < 0) {
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
    /* A packet the muxer's filter or the audio decoder refuses as invalid
       comes back as AVERROR_INVALIDDATA; what to do with it is Swift's. */
    if (w->transcoders[index]) {
        rc = veil_audio_feed(w->format, w->transcoders[index], p);
        if (rc < 0) veil_fail(failure, VEIL_FAILED_REENCODE_AUDIO, rc);
        return rc;
    }
    AVStream *dst = w->format->streams[w->stream_map[index]];
    AVPacket *copy = FF->av_packet_clone(p);
    if (!copy) return AVERROR(ENOMEM);
    FF->av_packet_rescale_ts(copy, w->input_time_bases[index], dst->time_base);
    copy->stream_index = dst->index;
    copy->pos = -1;
    rc = FF->av_interleaved_write_frame(w->format, copy);
    FF->av_packet_free(&copy);
    if (rc < 0) veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
    return rc;
}

/* Flushes the encoders and writes the trailer. */
static int finish(VeilVideoWriter *w, VeilFailure *failure) {
    FF->avcodec_send_frame(w->encoder, NULL);
    int rc = drain(w, failure);
    for (int i = 0; rc == 0 && i < w->stream_count; i++) {
        if (w->transcoders[i] && (rc = veil_audio_feed(w->format, w->transcoders[i], NULL)) < 0)
            veil_fail(failure, VEIL_FAILED_FINISH_AUDIO, rc);
    }
    int trailer = FF->av_write_trailer(w->format);
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
        FF->avio_flush(w->format->pb);
        int failed = w->format->pb->error;
        int closed = FF->avio_closep(&w->format->pb);
        if (complete && rc == 0 && (failed < 0 || closed < 0)) {
            rc = failed < 0 ? failed : closed;
            veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
        }
    }
    FF->sws_freeContext(w->from_rgb);
    FF->av_frame_free(&w->rgb);
    FF->av_frame_free(&w->frame);
    FF->av_packet_free(&w->packet);
    FF->avcodec_free_context(&w->encoder);
    FF->avformat_free_context(w->format);
    for (int i = 0; w->transcoders && i < w->stream_count; i++) veil_audio_free(w->transcoders[i]);
    free(w->transcoders);
    free(w->stream_map);
    free(w->input_time_bases);
    free(w);
    return rc;
}

int veil_writer_copied_streams(const VeilVideoWriter *w) { return w->copied + w->transcoded; }
int veil_writer_transcoded_streams(const VeilVideoWriter *w) { return w->transcoded; }

/* ---- Splicing a re-render (VideoSplice): copied GOPs beside re-encoded ones ---- */

int veil_packet_data(void *packet, uint8_t **data, int *size) {
    AVPacket *p = packet;
    int rc = FF->av_packet_make_writable(p);
    *data = p->data;
    *size = p->size;
    return rc;
}

int veil_writer_video_packet(VeilVideoWriter *w, void *packet, VeilFailure *failure) {
    const AVPacket *p = packet;
    AVPacket *copy = FF->av_packet_clone(p);
    if (!copy) return AVERROR(ENOMEM);
    FF->av_packet_rescale_ts(copy, p->time_base, w->video->time_base);
    copy->stream_index = w->video->index;
    copy->pos = -1;
    int rc = FF->av_interleaved_write_frame(w->format, copy);
    FF->av_packet_free(&copy);
    if (rc < 0) veil_fail(failure, VEIL_FAILED_WRITE_COPIED, rc);
    return rc;
}

int veil_writer_restart_video(VeilVideoWriter *w, const VeilStreams *s, const VeilWriterOptions *o, VeilFailure *failure) {
    FF->avcodec_send_frame(w->encoder, NULL);
    int rc = drain(w, failure);
    if (rc < 0) return rc;
    FF->avcodec_free_context(&w->encoder);
    return open_encoder(w, s, o, failure);
}

void veil_writer_parameter_sets(const VeilVideoWriter *w, VeilBytes *encoder, VeilBytes *output) {
    *encoder = (VeilBytes){w->encoder->extradata, w->encoder->extradata_size};
    *output = (VeilBytes){w->video->codecpar->extradata, w->video->codecpar->extradata_size};
}

int veil_encoder_headers(const VeilStreams *s, const VeilWriterOptions *o, uint8_t **data, int *size,
                         VeilFailure *failure) {
    *data = NULL;
    *size = 0;
    VeilVideoWriter w = {0};
    int rc = FF->avformat_alloc_output_context2(&w.format, NULL, o->format, o->format ? NULL : "headers.mp4");
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
    FF->avcodec_free_context(&w.encoder);
    FF->avformat_free_context(w.format);
    return rc;
}
