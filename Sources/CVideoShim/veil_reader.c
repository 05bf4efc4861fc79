// The reader: demuxes a file, URL or device, decodes its video into packed
// RGB, and holds every other stream's packets for the writer. What it opens
// and refuses, and the decode loop, are Swift's (VideoReader).
#include "veil_shim.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

struct VeilVideoReader {
    AVFormatContext *format;
    const AVCodec *codec;  /* the video's decoder, found at open */
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

void veil_video_quiet(void) { FF->av_log_set_level(AV_LOG_QUIET); }

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

int veil_reader_open(VeilVideoReader *r, const char *url, const char *format_name, int fps_probe_frames,
                     VeilFailure *failure) {
    const AVInputFormat *forced = NULL;
    if (format_name && !(forced = FF->av_find_input_format(format_name))) {
        veil_fail(failure, VEIL_FAILED_UNKNOWN_INPUT_FORMAT, 0);
        return -1;
    }
    r->format = FF->avformat_alloc_context();
    if (!r->format) return AVERROR(ENOMEM);
    r->format->interrupt_callback = (AVIOInterruptCB){interrupt_callback, r};
    int rc = FF->avformat_open_input(&r->format, url, forced, NULL);
    if (rc < 0) {
        veil_fail(failure, atomic_load(&r->interrupted) ? VEIL_FAILED_STOPPED_BEFORE_OPEN : VEIL_FAILED_OPEN_INPUT, rc);
        return rc;
    }
    r->format->fps_probe_size = fps_probe_frames;
    if ((rc = FF->avformat_find_stream_info(r->format, NULL)) < 0) {
        veil_fail(failure, VEIL_FAILED_STREAM_INFO, rc);
        return rc;
    }
    r->stream = FF->av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, &r->codec, 0);
    if (r->stream < 0) {
        veil_fail(failure, r->stream == AVERROR_DECODER_NOT_FOUND ? VEIL_FAILED_NO_DECODER : VEIL_FAILED_NO_VIDEO_STREAM, 0);
        return -1;
    }
    return 0;
}

void veil_reader_frame_size(const VeilVideoReader *r, int *width, int *height) {
    *width = r->format->streams[r->stream]->codecpar->width;
    *height = r->format->streams[r->stream]->codecpar->height;
}

int veil_reader_open_decoder(VeilVideoReader *r, int threads, VeilFailure *failure) {
    r->decoder = FF->avcodec_alloc_context3(r->codec);
    FF->avcodec_parameters_to_context(r->decoder, r->format->streams[r->stream]->codecpar);
    r->decoder->thread_count = threads;
    int rc = FF->avcodec_open2(r->decoder, r->codec, NULL);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_OPEN_DECODER, rc);
        return rc;
    }
    r->frame = FF->av_frame_alloc();
    r->packet = FF->av_packet_alloc();
    r->held = FF->av_packet_alloc();
    return r->frame && r->packet && r->held ? 0 : AVERROR(ENOMEM);
}

void veil_reader_info(const VeilVideoReader *r, VeilVideoInfo *info) {
    AVStream *st = r->format->streams[r->stream];
    const uint8_t *matrix = FF->av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    *info = (VeilVideoInfo){
        .width = r->decoder->width, .height = r->decoder->height,
        .rate_num = st->avg_frame_rate.num, .rate_den = st->avg_frame_rate.den,
        .real_rate_num = st->r_frame_rate.num, .real_rate_den = st->r_frame_rate.den,
        .time_base_num = st->time_base.num, .time_base_den = st->time_base.den,
        .frames = st->nb_frames, .duration = st->duration, .container_duration = r->format->duration,
        .display_angle = matrix ? -FF->av_display_rotation_get((const int32_t *)matrix) : NAN,
        .stream = r->stream, .streams = (int)r->format->nb_streams,
    };
}

void veil_reader_stream_info(const VeilVideoReader *r, int index, VeilStreamInfo *info) {
    const AVStream *s = r->format->streams[index];
    *info = (VeilStreamInfo){
        .audio = s->codecpar->codec_type == AVMEDIA_TYPE_AUDIO, .sample_rate = s->codecpar->sample_rate,
        .duration = s->duration, .time_base_num = s->time_base.num, .time_base_den = s->time_base.den,
    };
}

VeilStreams *veil_reader_streams(const VeilVideoReader *r) {
    VeilStreams *s = calloc(1, sizeof(*s));
    if (!s) return NULL;
    s->count = r->format->nb_streams;
    s->streams = calloc(s->count, sizeof(VeilStreamCopy));
    for (int i = 0; s->streams && i < s->count; i++) {
        AVStream *st = r->format->streams[i];
        s->streams[i].parameters = FF->avcodec_parameters_alloc();
        FF->avcodec_parameters_copy(s->streams[i].parameters, st->codecpar);
        s->streams[i].time_base = st->time_base;
    }
    AVStream *video = r->format->streams[r->stream];
    s->video = r->stream;
    s->frame_rate = video->avg_frame_rate.num ? video->avg_frame_rate : video->r_frame_rate;
    s->sample_aspect_ratio = r->decoder->sample_aspect_ratio;
    size_t size = 0;
    const uint8_t *matrix = FF->av_stream_get_side_data(video, AV_PKT_DATA_DISPLAYMATRIX, &size);
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
    for (int i = 0; s->streams && i < s->count; i++) FF->avcodec_parameters_free(&s->streams[i].parameters);
    free(s->streams);
    free(s->display_matrix);
    free(s);
}

/* The decode loop's states and its policy (what a damaged packet means, which
   frames are skipped, when the input has ended) are Swift's (`VideoReader`);
   these are the calls it makes, one FFmpeg call each. */

int veil_reader_interrupted(const VeilVideoReader *r) { return atomic_load(&((VeilVideoReader *)r)->interrupted); }

int veil_reader_read_packet(VeilVideoReader *r, VeilPacketInfo *info) {
    int rc = FF->av_read_frame(r->format, r->packet);
    if (rc < 0) return rc;
    info->stream = r->packet->stream_index;
    info->video = r->packet->stream_index == r->stream;
    info->pts = r->packet->pts;
    info->corrupt = (r->packet->flags & AV_PKT_FLAG_CORRUPT) != 0;
    return 0;
}

int veil_reader_send_packet(VeilVideoReader *r, int discard_nonreference) {
    r->decoder->skip_frame = discard_nonreference ? AVDISCARD_NONREF : AVDISCARD_DEFAULT;
    int rc = FF->avcodec_send_packet(r->decoder, r->packet);
    if (rc != AVERROR(EAGAIN)) FF->av_packet_unref(r->packet);
    return rc;
}

int veil_reader_end_input(VeilVideoReader *r) {
    FF->av_packet_unref(r->packet);
    return FF->avcodec_send_packet(r->decoder, NULL);
}

void veil_reader_drop_packet(VeilVideoReader *r) { FF->av_packet_unref(r->packet); }

void veil_reader_hold_packet(VeilVideoReader *r) {
    FF->av_packet_unref(r->held);
    FF->av_packet_move_ref(r->held, r->packet);
    r->held->time_base = r->format->streams[r->held->stream_index]->time_base;
}

int veil_reader_receive_frame(VeilVideoReader *r, VeilFrameInfo *info) {
    int rc = FF->avcodec_receive_frame(r->decoder, r->frame);
    if (rc < 0) return rc;
    info->width = r->frame->width;
    info->height = r->frame->height;
    info->yuv420p = r->frame->format == AV_PIX_FMT_YUV420P;
    info->pts = r->frame->best_effort_timestamp != AV_NOPTS_VALUE ? r->frame->best_effort_timestamp : r->frame->pts;
    return 0;
}

void veil_reader_drop_frame(VeilVideoReader *r) { FF->av_frame_unref(r->frame); }

void *veil_reader_keep_picture(VeilVideoReader *r) { return FF->av_frame_clone(r->frame); }

void veil_picture_free(void *picture) {
    AVFrame *f = picture;
    FF->av_frame_free(&f);
}

int veil_reader_convert_frame(VeilVideoReader *r, uint8_t *rgb) {
    AVFrame *f = r->frame;
    int w = r->decoder->width, h = r->decoder->height;
    r->to_rgb = FF->sws_getCachedContext(r->to_rgb, f->width, f->height, f->format, w, h,
                                     AV_PIX_FMT_RGB24, SWS_BILINEAR, NULL, NULL, NULL);
    if (!r->to_rgb) {
        FF->av_frame_unref(f);
        return AVERROR(EINVAL);
    }
    if (!r->rgb) {
        r->rgb = FF->av_frame_alloc();
        r->rgb->format = AV_PIX_FMT_RGB24;
        r->rgb->width = w;
        r->rgb->height = h;
        if (FF->av_frame_get_buffer(r->rgb, 64) < 0) {
            FF->av_frame_unref(f);
            return AVERROR(ENOMEM);
        }
    }
    FF->sws_scale(r->to_rgb, (const uint8_t *const *)f->data, f->linesize, 0, f->height, r->rgb->data, r->rgb->linesize);
    FF->av_image_copy_plane(rgb, w * 3, r->rgb->data[0], r->rgb->linesize[0], w * 3, h);
    FF->av_frame_unref(f);
    return 0;
}

int veil_error_string(int code, char *text, size_t length) { return FF->av_strerror(code, text, length); }

int veil_error_again(void) { return AVERROR(EAGAIN); }
int veil_error_eof(void) { return AVERROR_EOF; }
int veil_error_invalid_data(void) { return AVERROR_INVALIDDATA; }

void *veil_reader_take_packet(VeilVideoReader *r) {
    AVPacket *p = FF->av_packet_alloc();
    if (p) FF->av_packet_move_ref(p, r->held);
    return p;
}

int veil_reader_seek(VeilVideoReader *r, int64_t pts, VeilFailure *failure) {
    int rc = FF->av_seek_frame(r->format, r->stream, pts, AVSEEK_FLAG_BACKWARD);
    if (rc < 0) veil_fail(failure, VEIL_FAILED_SEEK, rc);
    else FF->avcodec_flush_buffers(r->decoder);
    return rc;
}

void veil_packet_free(void *packet) {
    AVPacket *p = packet;
    FF->av_packet_free(&p);
}

void veil_reader_close(VeilVideoReader *r) {
    /* A reader never opened holds nothing of FFmpeg's (whose libraries may be missing). */
    if (r && r->format) {
        FF->sws_freeContext(r->to_rgb);
        FF->av_frame_free(&r->frame);
        FF->av_frame_free(&r->rgb);
        FF->av_packet_free(&r->packet);
        FF->av_packet_free(&r->held);
        FF->avcodec_free_context(&r->decoder);
        FF->avformat_close_input(&r->format);
    }
    free(r);
}
