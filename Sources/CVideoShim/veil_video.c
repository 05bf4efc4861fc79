#include "veil_video.h"

#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/audio_fifo.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct VeilVideoReader {
    AVFormatContext *format;
    AVCodecContext *decoder;
    int stream;
    struct SwsContext *to_rgb;
    AVFrame *frame;
    AVPacket *packet;
    AVPacket *held;      /* another stream's packet, for the writer */
    AVFrame *rgb;        /* aligned, padded RGB: swscale may write past a row's end */
    int input_done;      /* no more packets: the decoder is being drained */
    int packet_pending;  /* r->packet is a video packet the decoder refused for now */
    int decoder_done;
};

/* An audio stream the output container cannot take as it is: decoded,
   resampled, and encoded with the container's own audio codec (AAC for mp4). */
typedef struct {
    AVCodecContext *decoder, *encoder;
    SwrContext *resampler;
    AVAudioFifo *fifo;
    AVStream *stream;
    AVFrame *decoded, *chunk;
    AVPacket *packet;
    int64_t next_pts;
} AudioTranscoder;

struct VeilVideoWriter {
    AVFormatContext *format;
    AudioTranscoder **transcoders; /* per input stream, NULL when copied or dropped */
    AVCodecContext *encoder;
    AVStream *video;
    struct SwsContext *from_rgb;
    AVFrame *frame;
    AVFrame *rgb;        /* aligned, padded copy of the caller's RGB */
    AVPacket *packet;
    int *stream_map;     /* input stream index -> output index, -1 dropped */
    int stream_count;
    int copied;
    int transcoded;
    int width, height;
    AVRational input_time_base;
    int header_written;
};

static void say(char *error, size_t length, const char *what, int code) {
    if (!error || length == 0)
        return;
    if (code < 0) {
        char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
        av_strerror(code, reason, sizeof(reason));
        snprintf(error, length, "%s: %s", what, reason);
    } else {
        snprintf(error, length, "%s", what);
    }
}

void veil_video_quiet(void) { av_log_set_level(AV_LOG_QUIET); }

VeilVideoReader *veil_video_open(const char *url, const char *format_name,
                                 char *error, size_t error_length) {
    static int devices = 0;
    if (!devices) {
        avdevice_register_all();
        devices = 1;
    }
    VeilVideoReader *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    const AVInputFormat *forced = NULL;
    if (format_name && *format_name) {
        forced = av_find_input_format(format_name);
        if (!forced) {
            say(error, error_length, "unknown input format", 0);
            free(r);
            return NULL;
        }
    }
    int rc = avformat_open_input(&r->format, url, forced, NULL);
    if (rc < 0) {
        say(error, error_length, "cannot open input", rc);
        free(r);
        return NULL;
    }
    if ((rc = avformat_find_stream_info(r->format, NULL)) < 0) {
        say(error, error_length, "cannot read stream information", rc);
        veil_video_close(r);
        return NULL;
    }
    const AVCodec *codec = NULL;
    r->stream = av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (r->stream < 0) {
        say(error, error_length, r->stream == AVERROR_DECODER_NOT_FOUND
                                     ? "no decoder for the video codec"
                                     : "no video stream", 0);
        veil_video_close(r);
        return NULL;
    }
    AVStream *st = r->format->streams[r->stream];
    r->decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(r->decoder, st->codecpar);
    r->decoder->thread_count = 2;
    if ((rc = avcodec_open2(r->decoder, codec, NULL)) < 0) {
        say(error, error_length, "cannot open the video decoder", rc);
        veil_video_close(r);
        return NULL;
    }
    if (r->decoder->width <= 0 || r->decoder->height <= 0) {
        say(error, error_length, "the video has no frame size", 0);
        veil_video_close(r);
        return NULL;
    }
    r->frame = av_frame_alloc();
    r->packet = av_packet_alloc();
    r->held = av_packet_alloc();
    return r;
}

void veil_video_info(const VeilVideoReader *r, VeilVideoInfo *info) {
    memset(info, 0, sizeof(*info));
    AVStream *st = r->format->streams[r->stream];
    info->width = r->decoder->width;
    info->height = r->decoder->height;
    AVRational rate = st->avg_frame_rate.num ? st->avg_frame_rate : st->r_frame_rate;
    if (!rate.num) rate = (AVRational){25, 1};
    info->rate_num = rate.num;
    info->rate_den = rate.den;
    info->time_base_num = st->time_base.num;
    info->time_base_den = st->time_base.den;
    info->frames = st->nb_frames;
    if (st->duration != AV_NOPTS_VALUE)
        info->duration = st->duration * av_q2d(st->time_base);
    else if (r->format->duration != AV_NOPTS_VALUE)
        info->duration = r->format->duration / (double)AV_TIME_BASE;
    const uint8_t *matrix = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix) {
        double angle = -av_display_rotation_get((const int32_t *)matrix);
        int degrees = (int)lround(angle) % 360;
        if (degrees < 0) degrees += 360;
        info->rotation = (degrees + 45) / 90 * 90 % 360;
    }
    for (unsigned i = 0; i < r->format->nb_streams; i++) {
        if ((int)i == r->stream) continue;
        info->other_streams++;
        AVStream *s = r->format->streams[i];
        if (s->codecpar->codec_type == AVMEDIA_TYPE_AUDIO && !info->has_audio) {
            info->has_audio = 1;
            if (s->duration != AV_NOPTS_VALUE)
                info->audio_duration = s->duration * av_q2d(s->time_base);
        }
    }
}

static int to_rgb(VeilVideoReader *r, uint8_t *rgb, int64_t *pts) {
    AVFrame *f = r->frame;
    int w = r->decoder->width, h = r->decoder->height;
    r->to_rgb = sws_getCachedContext(r->to_rgb, f->width, f->height, f->format, w, h,
                                     AV_PIX_FMT_RGB24, SWS_BILINEAR, NULL, NULL, NULL);
    if (!r->to_rgb)
        return AVERROR(EINVAL);
    if (!r->rgb) {
        r->rgb = av_frame_alloc();
        r->rgb->format = AV_PIX_FMT_RGB24;
        r->rgb->width = w;
        r->rgb->height = h;
        if (av_frame_get_buffer(r->rgb, 64) < 0)
            return AVERROR(ENOMEM);
    }
    sws_scale(r->to_rgb, (const uint8_t *const *)f->data, f->linesize, 0, f->height, r->rgb->data, r->rgb->linesize);
    av_image_copy_plane(rgb, w * 3, r->rgb->data[0], r->rgb->linesize[0], w * 3, h);
    *pts = f->best_effort_timestamp != AV_NOPTS_VALUE ? f->best_effort_timestamp : f->pts;
    av_frame_unref(f);
    return VEIL_VIDEO_FRAME;
}

int veil_video_read(VeilVideoReader *r, uint8_t *rgb, int64_t *pts, char *error, size_t error_length) {
    for (;;) {
        if (r->decoder_done)
            return VEIL_VIDEO_END;
        int rc = avcodec_receive_frame(r->decoder, r->frame);
        if (rc == 0) {
            if (r->frame->width != r->decoder->width || r->frame->height != r->decoder->height) {
                say(error, error_length, "the frame size changes mid-stream", 0);
                return -1;
            }
            rc = to_rgb(r, rgb, pts);
            if (rc < 0) say(error, error_length, "cannot convert the frame", rc);
            return rc;
        }
        if (rc == AVERROR_EOF) {
            r->decoder_done = 1;
            return VEIL_VIDEO_END;
        }
        if (rc != AVERROR(EAGAIN)) {
            say(error, error_length, "cannot decode the video", rc);
            return rc;
        }
        if (r->input_done)  /* drained but not EOF: should not happen */
            return VEIL_VIDEO_END;
        if (r->packet_pending) {
            rc = avcodec_send_packet(r->decoder, r->packet);
            if (rc == AVERROR(EAGAIN)) continue;  /* still full: should not happen after a receive */
            r->packet_pending = 0;
            av_packet_unref(r->packet);
            if (rc < 0 && rc != AVERROR_INVALIDDATA) {
                say(error, error_length, "cannot decode the video", rc);
                return rc;
            }
            continue;
        }
        rc = av_read_frame(r->format, r->packet);
        if (rc == AVERROR_EOF) {
            r->input_done = 1;
            avcodec_send_packet(r->decoder, NULL);
            continue;
        }
        if (rc < 0) {
            say(error, error_length, "cannot read the input", rc);
            return rc;
        }
        if (r->packet->stream_index == r->stream) {
            rc = avcodec_send_packet(r->decoder, r->packet);
            if (rc == AVERROR(EAGAIN)) {  /* take a frame out first, then send again */
                r->packet_pending = 1;
                continue;
            }
            av_packet_unref(r->packet);
            if (rc < 0 && rc != AVERROR_INVALIDDATA) {
                say(error, error_length, "cannot decode the video", rc);
                return rc;
            }
            continue;
        }
        av_packet_unref(r->held);
        av_packet_move_ref(r->held, r->packet);
        return VEIL_VIDEO_PACKET;
    }
}

void veil_video_close(VeilVideoReader *r) {
    if (!r) return;
    sws_freeContext(r->to_rgb);
    av_frame_free(&r->frame);
    av_frame_free(&r->rgb);
    av_packet_free(&r->packet);
    av_packet_free(&r->held);
    avcodec_free_context(&r->decoder);
    avformat_close_input(&r->format);
    free(r);
}

/* Moves every packet the encoder has ready into the muxer. */
static int drain_encoder(AVFormatContext *format, AVCodecContext *encoder, AVStream *stream,
                         AVPacket *packet, char *error, size_t error_length) {
    for (;;) {
        int rc = avcodec_receive_packet(encoder, packet);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
            return 0;
        if (rc < 0) {
            say(error, error_length, "cannot encode", rc);
            return rc;
        }
        /* A video packet without a duration makes the mp4 muxer's edit list
           end one frame early: give each the frame period. */
        if (packet->duration <= 0 && encoder->codec_type == AVMEDIA_TYPE_VIDEO && encoder->framerate.num > 0)
            packet->duration = av_rescale_q(1, av_inv_q(encoder->framerate), encoder->time_base);
        av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
        packet->stream_index = stream->index;
        if ((rc = av_interleaved_write_frame(format, packet)) < 0) {
            say(error, error_length, "cannot write the output", rc);
            return rc;
        }
    }
}

static int drain(VeilVideoWriter *w, char *error, size_t error_length) {
    return drain_encoder(w->format, w->encoder, w->video, w->packet, error, error_length);
}

static void transcoder_free(AudioTranscoder *t) {
    if (!t) return;
    avcodec_free_context(&t->decoder);
    avcodec_free_context(&t->encoder);
    swr_free(&t->resampler);
    if (t->fifo) av_audio_fifo_free(t->fifo);
    av_frame_free(&t->decoded);
    av_frame_free(&t->chunk);
    av_packet_free(&t->packet);
    free(t);
}

static AudioTranscoder *transcoder_open(AVFormatContext *format, AVStream *src) {
    const AVCodec *dc = avcodec_find_decoder(src->codecpar->codec_id);
    enum AVCodecID id = format->oformat->audio_codec;
    const AVCodec *ec = id != AV_CODEC_ID_NONE ? avcodec_find_encoder(id) : NULL;
    if (!dc || !ec) return NULL;
    AudioTranscoder *t = calloc(1, sizeof(*t));
    t->decoder = avcodec_alloc_context3(dc);
    avcodec_parameters_to_context(t->decoder, src->codecpar);
    t->decoder->pkt_timebase = src->time_base;
    if (avcodec_open2(t->decoder, dc, NULL) < 0) goto fail;
    t->encoder = avcodec_alloc_context3(ec);
    t->encoder->sample_fmt = ec->sample_fmts ? ec->sample_fmts[0] : t->decoder->sample_fmt;
    t->encoder->sample_rate = t->decoder->sample_rate;
    av_channel_layout_copy(&t->encoder->ch_layout, &t->decoder->ch_layout);
    if (t->encoder->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC)
        av_channel_layout_default(&t->encoder->ch_layout, t->decoder->ch_layout.nb_channels);
    t->encoder->bit_rate = 128000;
    t->encoder->time_base = (AVRational){1, t->encoder->sample_rate};
    if (format->oformat->flags & AVFMT_GLOBALHEADER) t->encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (avcodec_open2(t->encoder, ec, NULL) < 0) goto fail;
    if (swr_alloc_set_opts2(&t->resampler, &t->encoder->ch_layout, t->encoder->sample_fmt, t->encoder->sample_rate,
                            &t->decoder->ch_layout, t->decoder->sample_fmt, t->decoder->sample_rate, 0, NULL) < 0 ||
        swr_init(t->resampler) < 0)
        goto fail;
    t->fifo = av_audio_fifo_alloc(t->encoder->sample_fmt, t->encoder->ch_layout.nb_channels, 1);
    t->stream = avformat_new_stream(format, NULL);
    avcodec_parameters_from_context(t->stream->codecpar, t->encoder);
    t->stream->time_base = t->encoder->time_base;
    t->decoded = av_frame_alloc();
    t->chunk = av_frame_alloc();
    t->packet = av_packet_alloc();
    return t;
fail:
    transcoder_free(t);
    return NULL;
}

/* Encodes whole encoder frames from the FIFO (and the rest, when flushing). */
static int transcoder_encode(VeilVideoWriter *w, AudioTranscoder *t, int flush) {
    int size = t->encoder->frame_size > 0 ? t->encoder->frame_size : 1024;
    while (av_audio_fifo_size(t->fifo) >= size || (flush && av_audio_fifo_size(t->fifo) > 0)) {
        int n = FFMIN(size, av_audio_fifo_size(t->fifo));
        av_frame_unref(t->chunk);
        t->chunk->nb_samples = n;
        t->chunk->format = t->encoder->sample_fmt;
        t->chunk->sample_rate = t->encoder->sample_rate;
        av_channel_layout_copy(&t->chunk->ch_layout, &t->encoder->ch_layout);
        if (av_frame_get_buffer(t->chunk, 0) < 0) return AVERROR(ENOMEM);
        av_audio_fifo_read(t->fifo, (void **)t->chunk->data, n);
        t->chunk->pts = t->next_pts;
        t->next_pts += n;
        int rc = avcodec_send_frame(t->encoder, t->chunk);
        if (rc < 0) return rc;
        if ((rc = drain_encoder(w->format, t->encoder, t->stream, t->packet, NULL, 0)) < 0) return rc;
    }
    if (flush) {
        avcodec_send_frame(t->encoder, NULL);
        return drain_encoder(w->format, t->encoder, t->stream, t->packet, NULL, 0);
    }
    return 0;
}

/* Decodes a packet (NULL: flush), resamples into the FIFO, encodes what is whole. */
static int transcoder_feed(VeilVideoWriter *w, AudioTranscoder *t, AVPacket *p) {
    int rc = avcodec_send_packet(t->decoder, p);
    if (rc < 0 && rc != AVERROR_EOF && rc != AVERROR_INVALIDDATA) return rc;
    while ((rc = avcodec_receive_frame(t->decoder, t->decoded)) == 0) {
        int room = swr_get_out_samples(t->resampler, t->decoded->nb_samples);
        uint8_t **out = NULL;
        if (av_samples_alloc_array_and_samples(&out, NULL, t->encoder->ch_layout.nb_channels, room, t->encoder->sample_fmt, 0) < 0)
            return AVERROR(ENOMEM);
        int got = swr_convert(t->resampler, out, room, (const uint8_t **)t->decoded->extended_data, t->decoded->nb_samples);
        if (got > 0) av_audio_fifo_write(t->fifo, (void **)out, got);
        av_freep(&out[0]);
        av_freep(&out);
        av_frame_unref(t->decoded);
        if ((rc = transcoder_encode(w, t, 0)) < 0) return rc;
    }
    return rc == AVERROR(EAGAIN) || rc == AVERROR_EOF ? 0 : rc;
}

VeilVideoWriter *veil_writer_open(const char *url, const char *format_name,
                                  const VeilVideoReader *r, const char *codec_name,
                                  int crf, const char *preset, int drop_other_streams,
                                  char *error, size_t error_length) {
    VeilVideoWriter *w = calloc(1, sizeof(*w));
    if (!w) return NULL;
    int rc = avformat_alloc_output_context2(&w->format, NULL, format_name && *format_name ? format_name : NULL, url);
    if (rc < 0 || !w->format) {
        say(error, error_length, "unknown output format (name it with --output-format)", 0);
        free(w);
        return NULL;
    }
    AVStream *in = r->format->streams[r->stream];
    const AVCodec *codec = codec_name && *codec_name ? avcodec_find_encoder_by_name(codec_name)
                                                     : avcodec_find_encoder_by_name("libx264");
    if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    if (!codec) {
        say(error, error_length, "no video encoder available", 0);
        veil_writer_close(w, 0, NULL, 0);
        return NULL;
    }
    w->width = r->decoder->width;
    w->height = r->decoder->height;
    w->input_time_base = in->time_base;
    w->video = avformat_new_stream(w->format, NULL);
    w->encoder = avcodec_alloc_context3(codec);
    w->encoder->width = w->width;
    w->encoder->height = w->height;
    w->encoder->pix_fmt = AV_PIX_FMT_YUV420P;
    if (codec->pix_fmts) {
        int ok = 0;
        for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++)
            if (*p == AV_PIX_FMT_YUV420P) ok = 1;
        if (!ok) w->encoder->pix_fmt = codec->pix_fmts[0];
    }
    w->encoder->time_base = in->time_base;
    AVRational rate = in->avg_frame_rate.num ? in->avg_frame_rate : in->r_frame_rate;
    if (rate.num) w->encoder->framerate = rate;
    w->encoder->sample_aspect_ratio = r->decoder->sample_aspect_ratio;
    /* Frame threads each hold frames in flight: two keep both cores busy at
       a fraction of x264's automatic (1.5 x cores + lookahead) memory. */
    w->encoder->thread_count = 2;
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER)
        w->encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (crf >= 0) {
        char value[16];
        snprintf(value, sizeof(value), "%d", crf);
        av_opt_set(w->encoder->priv_data, "crf", value, 0);
    }
    if (preset && *preset)
        av_opt_set(w->encoder->priv_data, "preset", preset, 0);
    if ((rc = avcodec_open2(w->encoder, codec, NULL)) < 0) {
        say(error, error_length, "cannot open the video encoder", rc);
        veil_writer_close(w, 0, NULL, 0);
        return NULL;
    }
    avcodec_parameters_from_context(w->video->codecpar, w->encoder);
    w->video->time_base = w->encoder->time_base;
    w->video->avg_frame_rate = rate;
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(in, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix) {
        uint8_t *copy = av_stream_new_side_data(w->video, AV_PKT_DATA_DISPLAYMATRIX, size);
        if (copy) memcpy(copy, matrix, size);
    }
    w->stream_count = r->format->nb_streams;
    w->stream_map = calloc(w->stream_count, sizeof(int));
    w->transcoders = calloc(w->stream_count, sizeof(AudioTranscoder *));
    for (int i = 0; i < w->stream_count; i++) {
        w->stream_map[i] = -1;
        if (i == r->stream || drop_other_streams) continue;
        AVStream *src = r->format->streams[i];
        if (avformat_query_codec(w->format->oformat, src->codecpar->codec_id, FF_COMPLIANCE_NORMAL) != 1) {
            if (src->codecpar->codec_type == AVMEDIA_TYPE_AUDIO &&
                (w->transcoders[i] = transcoder_open(w->format, src)) != NULL) {
                w->stream_map[i] = w->transcoders[i]->stream->index;
                w->transcoded++;
            }
            continue;
        }
        AVStream *dst = avformat_new_stream(w->format, NULL);
        avcodec_parameters_copy(dst->codecpar, src->codecpar);
        dst->codecpar->codec_tag = 0;
        dst->time_base = src->time_base;
        w->stream_map[i] = dst->index;
        w->copied++;
    }
    if (!(w->format->oformat->flags & AVFMT_NOFILE)) {
        if ((rc = avio_open(&w->format->pb, url, AVIO_FLAG_WRITE)) < 0) {
            say(error, error_length, "cannot open the output", rc);
            veil_writer_close(w, 0, NULL, 0);
            return NULL;
        }
    }
    if ((rc = avformat_write_header(w->format, NULL)) < 0) {
        say(error, error_length, "cannot start the output", rc);
        veil_writer_close(w, 0, NULL, 0);
        return NULL;
    }
    w->header_written = 1;
    w->frame = av_frame_alloc();
    w->frame->format = w->encoder->pix_fmt;
    w->frame->width = w->width;
    w->frame->height = w->height;
    av_frame_get_buffer(w->frame, 0);
    w->rgb = av_frame_alloc();
    w->rgb->format = AV_PIX_FMT_RGB24;
    w->rgb->width = w->width;
    w->rgb->height = w->height;
    av_frame_get_buffer(w->rgb, 64);
    w->packet = av_packet_alloc();
    w->from_rgb = sws_getContext(w->width, w->height, AV_PIX_FMT_RGB24, w->width, w->height,
                                 w->encoder->pix_fmt, SWS_BILINEAR, NULL, NULL, NULL);
    return w;
}

int veil_writer_frame(VeilVideoWriter *w, const uint8_t *rgb, int64_t pts, char *error, size_t error_length) {
    int rc = av_frame_make_writable(w->frame);
    if (rc < 0) {
        say(error, error_length, "cannot prepare a frame", rc);
        return rc;
    }
    av_image_copy_plane(w->rgb->data[0], w->rgb->linesize[0], rgb, w->width * 3, w->width * 3, w->height);
    sws_scale(w->from_rgb, (const uint8_t *const *)w->rgb->data, w->rgb->linesize, 0, w->height, w->frame->data, w->frame->linesize);
    w->frame->pts = pts;
    if ((rc = avcodec_send_frame(w->encoder, w->frame)) < 0) {
        say(error, error_length, "cannot encode the video", rc);
        return rc;
    }
    return drain(w, error, error_length);
}

void *veil_video_take_packet(VeilVideoReader *r) {
    AVPacket *p = av_packet_alloc();
    if (p) av_packet_move_ref(p, r->held);
    return p;
}

void veil_video_free_packet(void *packet) {
    AVPacket *p = packet;
    av_packet_free(&p);
}

int veil_writer_packet(VeilVideoWriter *w, const VeilVideoReader *r, void *packet, char *error, size_t error_length) {
    AVPacket *p = packet;
    int index = p->stream_index;
    if (index < 0 || index >= w->stream_count || w->stream_map[index] < 0) {
        av_packet_free(&p);
        return 0;
    }
    if (w->transcoders[index]) {
        int rc = transcoder_feed(w, w->transcoders[index], p);
        av_packet_free(&p);
        if (rc < 0) say(error, error_length, "cannot re-encode the audio", rc);
        return rc;
    }
    AVStream *src = r->format->streams[index];
    AVStream *dst = w->format->streams[w->stream_map[index]];
    av_packet_rescale_ts(p, src->time_base, dst->time_base);
    p->stream_index = dst->index;
    p->pos = -1;
    int rc = av_interleaved_write_frame(w->format, p);
    av_packet_free(&p);
    if (rc < 0) say(error, error_length, "cannot write the output", rc);
    return rc;
}

int veil_writer_close(VeilVideoWriter *w, int finish, char *error, size_t error_length) {
    if (!w) return 0;
    int rc = 0;
    if (finish && w->header_written) {
        avcodec_send_frame(w->encoder, NULL);
        rc = drain(w, error, error_length);
        for (int i = 0; rc == 0 && i < w->stream_count; i++) {
            if (!w->transcoders[i]) continue;
            rc = transcoder_feed(w, w->transcoders[i], NULL);
            if (rc == 0) rc = transcoder_encode(w, w->transcoders[i], 1);
            if (rc < 0) say(error, error_length, "cannot finish the audio", rc);
        }
        int trailer = av_write_trailer(w->format);
        if (rc == 0 && trailer < 0) {
            say(error, error_length, "cannot finish the output", trailer);
            rc = trailer;
        }
    }
    if (w->format && !(w->format->oformat->flags & AVFMT_NOFILE))
        avio_closep(&w->format->pb);
    sws_freeContext(w->from_rgb);
    av_frame_free(&w->rgb);
    av_frame_free(&w->frame);
    av_packet_free(&w->packet);
    avcodec_free_context(&w->encoder);
    avformat_free_context(w->format);
    for (int i = 0; w->transcoders && i < w->stream_count; i++) transcoder_free(w->transcoders[i]);
    free(w->transcoders);
    free(w->stream_map);
    free(w);
    return rc;
}

int veil_writer_copied_streams(const VeilVideoWriter *w) { return w->copied + w->transcoded; }
int veil_writer_transcoded_streams(const VeilVideoWriter *w) { return w->transcoded; }

/* ---- Test and demo clips ---- */

struct VeilClipWriter {
    AVFormatContext *format;
    AVCodecContext *video, *audio;
    AVStream *vs, *as;
    AVFrame *vframe, *aframe;
    AVPacket *packet;
    struct SwsContext *sws;
    AVFrame *rgb;
    int width, height, fps;
    int64_t frames, samples;
};

static int clip_drain(VeilClipWriter *c, AVCodecContext *enc, AVStream *st) {
    return drain_encoder(c->format, enc, st, c->packet, NULL, 0);
}

static int clip_audio_until(VeilClipWriter *c, int64_t until_samples, int flush) {
    if (!c->audio) return 0;
    while (c->samples < until_samples) {
        int n = c->audio->frame_size > 0 ? c->audio->frame_size : 1024;
        av_frame_make_writable(c->aframe);
        c->aframe->nb_samples = n;
        for (int i = 0; i < n; i++) {
            float v = 0.3f * sinf(2.0f * (float)M_PI * 440.0f * (float)(c->samples + i) / (float)c->audio->sample_rate);
            if (c->audio->sample_fmt == AV_SAMPLE_FMT_S16)
                ((int16_t *)c->aframe->data[0])[i] = (int16_t)(v * 32767);
            else
                ((float *)c->aframe->data[0])[i] = v;
        }
        c->aframe->pts = c->samples;
        c->samples += n;
        int rc = avcodec_send_frame(c->audio, c->aframe);
        if (rc < 0) return rc;
        if ((rc = clip_drain(c, c->audio, c->as)) < 0) return rc;
    }
    if (flush) {
        avcodec_send_frame(c->audio, NULL);
        return clip_drain(c, c->audio, c->as);
    }
    return 0;
}

VeilClipWriter *veil_clip_open(const char *path, int width, int height, int fps, int with_audio,
                               int rotation, char *error, size_t error_length) {
    VeilClipWriter *c = calloc(1, sizeof(*c));
    c->width = width; c->height = height; c->fps = fps;
    if (avformat_alloc_output_context2(&c->format, NULL, NULL, path) < 0 || !c->format) {
        say(error, error_length, "unknown clip format", 0);
        free(c);
        return NULL;
    }
    const AVCodec *vc = avcodec_find_encoder_by_name("libx264");
    if (!vc) vc = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    c->vs = avformat_new_stream(c->format, NULL);
    c->video = avcodec_alloc_context3(vc);
    c->video->width = width; c->video->height = height;
    c->video->pix_fmt = AV_PIX_FMT_YUV420P;
    c->video->time_base = (AVRational){1, fps};
    c->video->framerate = (AVRational){fps, 1};
    if (c->format->oformat->flags & AVFMT_GLOBALHEADER) c->video->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    av_opt_set(c->video->priv_data, "preset", "ultrafast", 0);
    int rc = avcodec_open2(c->video, vc, NULL);
    if (rc < 0) { say(error, error_length, "cannot open the clip's video encoder", rc); goto fail; }
    avcodec_parameters_from_context(c->vs->codecpar, c->video);
    c->vs->time_base = c->video->time_base;
    if (rotation) {
        int32_t *matrix = (int32_t *)av_stream_new_side_data(c->vs, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
        if (matrix) av_display_rotation_set(matrix, rotation);
    }
    if (with_audio) {
        const AVCodec *ac = avcodec_find_encoder(with_audio == 2 ? AV_CODEC_ID_PCM_S16LE : AV_CODEC_ID_AAC);
        if (!ac) { say(error, error_length, "no audio encoder", 0); goto fail; }
        c->as = avformat_new_stream(c->format, NULL);
        c->audio = avcodec_alloc_context3(ac);
        c->audio->sample_fmt = with_audio == 2 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_FLTP;
        c->audio->sample_rate = 48000;
        av_channel_layout_default(&c->audio->ch_layout, 1);
        c->audio->bit_rate = 64000;
        c->audio->time_base = (AVRational){1, 48000};
        if (c->format->oformat->flags & AVFMT_GLOBALHEADER) c->audio->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        if ((rc = avcodec_open2(c->audio, ac, NULL)) < 0) { say(error, error_length, "cannot open the AAC encoder", rc); goto fail; }
        avcodec_parameters_from_context(c->as->codecpar, c->audio);
        c->as->time_base = c->audio->time_base;
        c->aframe = av_frame_alloc();
        c->aframe->format = c->audio->sample_fmt;
        av_channel_layout_copy(&c->aframe->ch_layout, &c->audio->ch_layout);
        c->aframe->sample_rate = 48000;
        c->aframe->nb_samples = c->audio->frame_size > 0 ? c->audio->frame_size : 1024;
        av_frame_get_buffer(c->aframe, 0);
    }
    if ((rc = avio_open(&c->format->pb, path, AVIO_FLAG_WRITE)) < 0) { say(error, error_length, "cannot create the clip", rc); goto fail; }
    if ((rc = avformat_write_header(c->format, NULL)) < 0) { say(error, error_length, "cannot start the clip", rc); goto fail; }
    c->vframe = av_frame_alloc();
    c->vframe->format = AV_PIX_FMT_YUV420P; c->vframe->width = width; c->vframe->height = height;
    av_frame_get_buffer(c->vframe, 0);
    c->packet = av_packet_alloc();
    c->rgb = av_frame_alloc();
    c->rgb->format = AV_PIX_FMT_RGB24; c->rgb->width = width; c->rgb->height = height;
    av_frame_get_buffer(c->rgb, 64);
    c->sws = sws_getContext(width, height, AV_PIX_FMT_RGB24, width, height, AV_PIX_FMT_YUV420P, SWS_BILINEAR, NULL, NULL, NULL);
    return c;
fail:
    if (c->format && c->format->pb) avio_closep(&c->format->pb);
    avcodec_free_context(&c->video);
    avcodec_free_context(&c->audio);
    av_frame_free(&c->aframe);
    avformat_free_context(c->format);
    free(c);
    return NULL;
}

int veil_clip_frame(VeilClipWriter *c, const uint8_t *rgb) {
    av_frame_make_writable(c->vframe);
    av_image_copy_plane(c->rgb->data[0], c->rgb->linesize[0], rgb, c->width * 3, c->width * 3, c->height);
    sws_scale(c->sws, (const uint8_t *const *)c->rgb->data, c->rgb->linesize, 0, c->height, c->vframe->data, c->vframe->linesize);
    c->vframe->pts = c->frames++;
    int rc = avcodec_send_frame(c->video, c->vframe);
    if (rc < 0) return rc;
    if ((rc = clip_drain(c, c->video, c->vs)) < 0) return rc;
    return c->audio ? clip_audio_until(c, c->frames * 48000 / c->fps, 0) : 0;
}

int veil_clip_close(VeilClipWriter *c) {
    avcodec_send_frame(c->video, NULL);
    int rc = clip_drain(c, c->video, c->vs);
    if (rc == 0 && c->audio) rc = clip_audio_until(c, c->frames * 48000 / c->fps, 1);
    int trailer = av_write_trailer(c->format);
    avio_closep(&c->format->pb);
    sws_freeContext(c->sws);
    av_frame_free(&c->rgb);
    av_frame_free(&c->vframe);
    av_frame_free(&c->aframe);
    av_packet_free(&c->packet);
    avcodec_free_context(&c->video);
    avcodec_free_context(&c->audio);
    avformat_free_context(c->format);
    free(c);
    return rc < 0 ? rc : trailer;
}
