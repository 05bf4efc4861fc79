// The reader: demuxes a file, URL or device, decodes its video into packed
// RGB, and holds every other stream's packets for the writer.
#include "veil_shim.h"

#include <libavdevice/avdevice.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#include <math.h>
#include <stdatomic.h>
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
    atomic_int interrupted;
};

void veil_fail(VeilFailure *failure, int step, int code) {
    if (failure) *failure = (VeilFailure){.step = step, .code = code < 0 ? code : 0};
}

void veil_video_quiet(void) { av_log_set_level(AV_LOG_QUIET); }

static int interrupt_callback(void *opaque) {
    VeilVideoReader *r = opaque;
    return atomic_load(&r->interrupted);
}

VeilVideoReader *veil_reader_alloc(void) {
    VeilVideoReader *r = calloc(1, sizeof(*r));
    if (!r) return NULL;
    atomic_init(&r->interrupted, 0);
    return r;
}

void veil_reader_interrupt(VeilVideoReader *r) { atomic_store(&r->interrupted, 1); }

static int open_decoder(VeilVideoReader *r, int64_t max_pixels, int decoder_threads, VeilFailure *failure) {
    const AVCodec *codec = NULL;
    r->stream = av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (r->stream < 0) {
        veil_fail(failure, r->stream == AVERROR_DECODER_NOT_FOUND ? VEIL_FAILED_NO_DECODER : VEIL_FAILED_NO_VIDEO_STREAM, 0);
        return -1;
    }
    AVCodecParameters *par = r->format->streams[r->stream]->codecpar;
    if (par->width <= 0 || par->height <= 0) {
        veil_fail(failure, VEIL_FAILED_NO_FRAME_SIZE, 0);
        return -1;
    }
    if (max_pixels > 0 && (int64_t)par->width * par->height > max_pixels) {
        veil_fail(failure, VEIL_FAILED_FRAMES_OVER_LIMIT, 0);
        if (failure) {
            failure->detail[0] = par->width;
            failure->detail[1] = par->height;
            failure->detail[2] = max_pixels;
        }
        return -1;
    }
    r->decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(r->decoder, par);
    r->decoder->thread_count = decoder_threads;
    int rc = avcodec_open2(r->decoder, codec, NULL);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_OPEN_DECODER, rc);
        return rc;
    }
    return 0;
}

int veil_reader_open(VeilVideoReader *r, const char *url, const char *format_name,
                     int64_t max_pixels, int decoder_threads, int fps_probe_frames, VeilFailure *failure) {
    static int devices = 0;
    if (!devices) {
        avdevice_register_all();
        devices = 1;
    }
    const AVInputFormat *forced = NULL;
    if (format_name && *format_name && !(forced = av_find_input_format(format_name))) {
        veil_fail(failure, VEIL_FAILED_UNKNOWN_INPUT_FORMAT, 0);
        return -1;
    }
    r->format = avformat_alloc_context();
    if (!r->format) return AVERROR(ENOMEM);
    r->format->interrupt_callback = (AVIOInterruptCB){interrupt_callback, r};
    int rc = avformat_open_input(&r->format, url, forced, NULL);
    if (rc < 0) {
        veil_fail(failure, atomic_load(&r->interrupted) ? VEIL_FAILED_STOPPED_BEFORE_OPEN : VEIL_FAILED_OPEN_INPUT, rc);
        return rc;
    }
    if (fps_probe_frames > 0) r->format->fps_probe_size = fps_probe_frames;
    if ((rc = avformat_find_stream_info(r->format, NULL)) < 0) {
        veil_fail(failure, VEIL_FAILED_STREAM_INFO, rc);
        return rc;
    }
    if ((rc = open_decoder(r, max_pixels, decoder_threads, failure)) < 0)
        return rc;
    r->frame = av_frame_alloc();
    r->packet = av_packet_alloc();
    r->held = av_packet_alloc();
    return r->frame && r->packet && r->held ? 0 : AVERROR(ENOMEM);
}

void veil_reader_info(const VeilVideoReader *r, VeilVideoInfo *info) {
    memset(info, 0, sizeof(*info));
    AVStream *st = r->format->streams[r->stream];
    info->width = r->decoder->width;
    info->height = r->decoder->height;
    info->rate_num = st->avg_frame_rate.num;
    info->rate_den = st->avg_frame_rate.den;
    info->real_rate_num = st->r_frame_rate.num;
    info->real_rate_den = st->r_frame_rate.den;
    info->time_base_num = st->time_base.num;
    info->time_base_den = st->time_base.den;
    info->frames = st->nb_frames;
    if (st->duration != AV_NOPTS_VALUE)
        info->duration = st->duration * av_q2d(st->time_base);
    else if (r->format->duration != AV_NOPTS_VALUE)
        info->duration = r->format->duration / (double)AV_TIME_BASE;
    const uint8_t *matrix = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    info->display_angle = matrix ? -av_display_rotation_get((const int32_t *)matrix) : NAN;
    for (unsigned i = 0; i < r->format->nb_streams; i++) {
        if ((int)i == r->stream) continue;
        info->other_streams++;
        AVStream *s = r->format->streams[i];
        if (s->codecpar->codec_type == AVMEDIA_TYPE_AUDIO && !info->has_audio) {
            info->has_audio = 1;
            info->audio_sample_rate = s->codecpar->sample_rate;
            if (s->duration != AV_NOPTS_VALUE)
                info->audio_duration = s->duration * av_q2d(s->time_base);
        }
    }
}

VeilStreams *veil_reader_streams(const VeilVideoReader *r) {
    VeilStreams *s = calloc(1, sizeof(*s));
    if (!s) return NULL;
    s->count = r->format->nb_streams;
    s->streams = calloc(s->count, sizeof(VeilStreamCopy));
    for (int i = 0; s->streams && i < s->count; i++) {
        AVStream *st = r->format->streams[i];
        s->streams[i].parameters = avcodec_parameters_alloc();
        avcodec_parameters_copy(s->streams[i].parameters, st->codecpar);
        s->streams[i].time_base = st->time_base;
    }
    AVStream *video = r->format->streams[r->stream];
    s->video = r->stream;
    s->frame_rate = video->avg_frame_rate.num ? video->avg_frame_rate : video->r_frame_rate;
    s->sample_aspect_ratio = r->decoder->sample_aspect_ratio;
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(video, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix && (s->display_matrix = malloc(size))) {
        memcpy(s->display_matrix, matrix, size);
        s->display_matrix_size = size;
    }
    return s;
}

void veil_streams_video_size(const VeilStreams *s, int *width, int *height) {
    *width = s->streams[s->video].parameters->width;
    *height = s->streams[s->video].parameters->height;
}

void veil_streams_free(VeilStreams *s) {
    if (!s) return;
    for (int i = 0; s->streams && i < s->count; i++) avcodec_parameters_free(&s->streams[i].parameters);
    free(s->streams);
    free(s->display_matrix);
    free(s);
}

/* The decode loop's states and its policy (what a damaged packet means, which
   frames are skipped, when the input has ended) are Swift's (`VideoReader`);
   these are the calls it makes, one FFmpeg call each. */

int veil_reader_interrupted(const VeilVideoReader *r) { return atomic_load(&((VeilVideoReader *)r)->interrupted); }

int veil_reader_read_packet(VeilVideoReader *r, VeilPacketInfo *info) {
    int rc = av_read_frame(r->format, r->packet);
    if (rc < 0) return rc;
    info->stream = r->packet->stream_index;
    info->video = r->packet->stream_index == r->stream;
    info->pts = r->packet->pts;
    info->corrupt = (r->packet->flags & AV_PKT_FLAG_CORRUPT) != 0;
    return 0;
}

int veil_reader_send_packet(VeilVideoReader *r, int discard_nonreference) {
    r->decoder->skip_frame = discard_nonreference ? AVDISCARD_NONREF : AVDISCARD_DEFAULT;
    int rc = avcodec_send_packet(r->decoder, r->packet);
    if (rc != AVERROR(EAGAIN)) av_packet_unref(r->packet);
    return rc;
}

int veil_reader_end_input(VeilVideoReader *r) {
    av_packet_unref(r->packet);
    return avcodec_send_packet(r->decoder, NULL);
}

void veil_reader_drop_packet(VeilVideoReader *r) { av_packet_unref(r->packet); }

void veil_reader_hold_packet(VeilVideoReader *r) {
    av_packet_unref(r->held);
    av_packet_move_ref(r->held, r->packet);
    r->held->time_base = r->format->streams[r->held->stream_index]->time_base;
}

int veil_reader_receive_frame(VeilVideoReader *r, VeilFrameInfo *info) {
    int rc = avcodec_receive_frame(r->decoder, r->frame);
    if (rc < 0) return rc;
    info->width = r->frame->width;
    info->height = r->frame->height;
    info->pts = r->frame->best_effort_timestamp != AV_NOPTS_VALUE ? r->frame->best_effort_timestamp : r->frame->pts;
    return 0;
}

void veil_reader_drop_frame(VeilVideoReader *r) { av_frame_unref(r->frame); }

void *veil_reader_keep_picture(VeilVideoReader *r) {
    AVFrame *f = r->frame;
    if (f->format != AV_PIX_FMT_YUV420P || f->width != r->decoder->width || f->height != r->decoder->height) return NULL;
    return av_frame_clone(f);
}

void veil_picture_free(void *picture) {
    AVFrame *f = picture;
    av_frame_free(&f);
}

int veil_reader_convert_frame(VeilVideoReader *r, uint8_t *rgb) {
    AVFrame *f = r->frame;
    int w = r->decoder->width, h = r->decoder->height;
    r->to_rgb = sws_getCachedContext(r->to_rgb, f->width, f->height, f->format, w, h,
                                     AV_PIX_FMT_RGB24, SWS_BILINEAR, NULL, NULL, NULL);
    if (!r->to_rgb) {
        av_frame_unref(f);
        return AVERROR(EINVAL);
    }
    if (!r->rgb) {
        r->rgb = av_frame_alloc();
        r->rgb->format = AV_PIX_FMT_RGB24;
        r->rgb->width = w;
        r->rgb->height = h;
        if (av_frame_get_buffer(r->rgb, 64) < 0) {
            av_frame_unref(f);
            return AVERROR(ENOMEM);
        }
    }
    sws_scale(r->to_rgb, (const uint8_t *const *)f->data, f->linesize, 0, f->height, r->rgb->data, r->rgb->linesize);
    av_image_copy_plane(rgb, w * 3, r->rgb->data[0], r->rgb->linesize[0], w * 3, h);
    av_frame_unref(f);
    return 0;
}

void veil_error_string(int code, char *text, size_t length) {
    if (!text || length == 0) return;
    if (av_strerror(code, text, length) < 0) snprintf(text, length, "error %d", code);
}

int veil_error_again(void) { return AVERROR(EAGAIN); }
int veil_error_eof(void) { return AVERROR_EOF; }
int veil_error_invalid_data(void) { return AVERROR_INVALIDDATA; }

void *veil_reader_take_packet(VeilVideoReader *r) {
    AVPacket *p = av_packet_alloc();
    if (p) av_packet_move_ref(p, r->held);
    return p;
}

int veil_reader_seek(VeilVideoReader *r, int64_t pts, VeilFailure *failure) {
    int rc = av_seek_frame(r->format, r->stream, pts, AVSEEK_FLAG_BACKWARD);
    if (rc < 0) veil_fail(failure, VEIL_FAILED_SEEK, rc);
    else avcodec_flush_buffers(r->decoder);
    return rc;
}

void veil_packet_free(void *packet) {
    AVPacket *p = packet;
    av_packet_free(&p);
}

void veil_reader_close(VeilVideoReader *r) {
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
