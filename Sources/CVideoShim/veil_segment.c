// Time segments of a long video: the keyframes a split may cut at, a reader
// started at one of them, the time of a copied packet, and the join of the
// parts by copying their packets (no re-encoding).
#include "veil_shim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Opens `url` for reading its video stream's packets alone: the stream's
   index, or negative (why in `failure`). */
static int open_video_packets(const char *url, AVFormatContext **format, VeilFailure *failure) {
    int rc = avformat_open_input(format, url, NULL, NULL);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_OPEN_INPUT, rc);
        return rc;
    }
    if ((rc = avformat_find_stream_info(*format, NULL)) < 0 ||
        (rc = av_find_best_stream(*format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0)) < 0) {
        veil_fail(failure, VEIL_FAILED_NO_VIDEO_STREAM, rc);
        avformat_close_input(format);
        return rc;
    }
    for (unsigned i = 0; i < (*format)->nb_streams; i++)
        if ((int)i != rc) (*format)->streams[i]->discard = AVDISCARD_ALL;
    return rc;
}

/* Closes what a read of every packet used: 0 when it read to the end, else
   the error (why in `failure`). */
static int end_reading(AVFormatContext **format, AVPacket **packet, int rc, VeilFailure *failure) {
    av_packet_free(packet);
    avformat_close_input(format);
    if (rc == AVERROR_EOF) return 0;
    rc = rc < 0 ? rc : AVERROR(EIO);
    veil_fail(failure, VEIL_FAILED_READ_INPUT, rc);
    return rc;
}

int veil_probe_keyframes(const char *url, int64_t **times, int *count, int *time_base_num, int *time_base_den,
                         VeilFailure *failure) {
    AVFormatContext *format = NULL;
    *times = NULL;
    *count = 0;
    int rc = open_video_packets(url, &format, failure);
    if (rc < 0) return rc;
    int stream = rc, capacity = 0;
    *time_base_num = format->streams[stream]->time_base.num;
    *time_base_den = format->streams[stream]->time_base.den;
    /* A container with an index (mp4, mov) lists its keyframes in the header:
       no need to read the whole file in every task. The index holds decode
       times; a cut there still partitions the frames exactly (by presentation
       time), a frame or two from the keyframe at most. */
    AVStream *video = format->streams[stream];
    int entries = avformat_index_get_entries_count(video);
    for (int i = 0; i < entries; i++) {
        const AVIndexEntry *e = avformat_index_get_entry(video, i);
        if (!(e->flags & AVINDEX_KEYFRAME) || e->timestamp == AV_NOPTS_VALUE) continue;
        if (*count == capacity) {
            capacity = capacity ? capacity * 2 : 256;
            int64_t *grown = realloc(*times, capacity * sizeof(int64_t));
            if (!grown) { free(*times); *times = NULL; *count = 0; avformat_close_input(&format); return AVERROR(ENOMEM); }
            *times = grown;
        }
        (*times)[(*count)++] = e->timestamp;
    }
    if (*count > 0) {
        avformat_close_input(&format);
        return 0;
    }
    free(*times);
    *times = NULL;
    *count = capacity = 0;
    AVPacket *packet = av_packet_alloc();
    while ((rc = av_read_frame(format, packet)) >= 0) {
        if (packet->stream_index == stream && (packet->flags & AV_PKT_FLAG_KEY) && packet->pts != AV_NOPTS_VALUE) {
            if (*count == capacity) {
                capacity = capacity ? capacity * 2 : 256;
                int64_t *grown = realloc(*times, capacity * sizeof(int64_t));
                if (!grown) { rc = AVERROR(ENOMEM); break; }
                *times = grown;
            }
            (*times)[(*count)++] = packet->pts;
        }
        av_packet_unref(packet);
    }
    if ((rc = end_reading(&format, &packet, rc, failure)) < 0) {
        free(*times);
        *times = NULL;
        *count = 0;
    }
    return rc;
}

void veil_free(void *pointer) { free(pointer); }

double veil_packet_seconds(const void *packet) {
    const AVPacket *p = packet;
    int64_t t = p->pts != AV_NOPTS_VALUE ? p->pts : p->dts;
    return t == AV_NOPTS_VALUE ? NAN : t * av_q2d(p->time_base);
}

/* ---- The join: parts opened and read, packets written; the order and the
   streams' ends are decided in Swift (VideoJoin). ---- */

struct VeilJoin {
    AVFormatContext *out;
    int header_written;
};

struct VeilPart {
    AVFormatContext *in;
    AVPacket *packet;
    AVRational *to; /* the output's time base of each stream */
};

int veil_packet_stream(const void *packet) { return ((const AVPacket *)packet)->stream_index; }

void veil_packet_timing(const void *packet, int64_t *pts, int64_t *dts, int64_t *duration) {
    const AVPacket *p = packet;
    *pts = p->pts;
    *dts = p->dts;
    *duration = p->duration;
}

void veil_packet_set_duration(void *packet, int64_t duration) { ((AVPacket *)packet)->duration = duration; }

int64_t veil_no_time(void) { return AV_NOPTS_VALUE; }

/* Opens part `url`, checking its streams match the output's (when given). */
static int open_part(const char *url, AVFormatContext **in, const AVFormatContext *first, VeilFailure *failure) {
    int rc = avformat_open_input(in, url, NULL, NULL);
    if (rc >= 0) rc = avformat_find_stream_info(*in, NULL);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_READ_PART, rc);
        return rc;
    }
    int same = !first || first->nb_streams == (*in)->nb_streams;
    for (unsigned i = 0; same && first && i < first->nb_streams; i++)
        same = first->streams[i]->codecpar->codec_id == (*in)->streams[i]->codecpar->codec_id;
    if (!same) {
        veil_fail(failure, VEIL_FAILED_PART_STREAMS, 0);
        return AVERROR_INVALIDDATA;
    }
    return 0;
}

/* The output's streams mirror the first part's: parameters, clocks, rotation. */
static int mirror_streams(AVFormatContext *out, const AVFormatContext *first) {
    for (unsigned i = 0; i < first->nb_streams; i++) {
        AVStream *src = first->streams[i], *dst = avformat_new_stream(out, NULL);
        if (!dst) return AVERROR(ENOMEM);
        int rc = avcodec_parameters_copy(dst->codecpar, src->codecpar);
        if (rc < 0) return rc;
        dst->codecpar->codec_tag = 0;
        dst->time_base = src->time_base;
        dst->avg_frame_rate = src->avg_frame_rate;
        dst->r_frame_rate = src->r_frame_rate;
        dst->sample_aspect_ratio = src->sample_aspect_ratio;
        av_dict_copy(&dst->metadata, src->metadata, 0);
        size_t size = 0;
        const uint8_t *matrix = av_stream_get_side_data(src, AV_PKT_DATA_DISPLAYMATRIX, &size);
        uint8_t *copy = matrix ? av_stream_new_side_data(dst, AV_PKT_DATA_DISPLAYMATRIX, size) : NULL;
        if (copy) memcpy(copy, matrix, size);
    }
    return 0;
}

int veil_join_close(VeilJoin *j, int finish, VeilFailure *failure) {
    if (!j) return 0;
    int rc = finish && j->header_written ? av_write_trailer(j->out) : 0;
    if (rc < 0) veil_fail(failure, VEIL_FAILED_FINISH_OUTPUT, rc);
    if (j->out && !(j->out->oformat->flags & AVFMT_NOFILE)) {
        int closed = avio_closep(&j->out->pb);
        if (finish && rc >= 0 && closed < 0) veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc = closed);
    }
    avformat_free_context(j->out);
    free(j);
    return rc;
}

VeilJoin *veil_join_open(const char *first_part, const char *output, const char *format_name,
                         VeilFailure *failure) {
    VeilJoin *j = calloc(1, sizeof(*j));
    AVFormatContext *first = NULL;
    int rc = j ? open_part(first_part, &first, NULL, failure) : AVERROR(ENOMEM);
    if (rc >= 0 && (rc = avformat_alloc_output_context2(&j->out, NULL, format_name, output)) < 0)
        veil_fail(failure, VEIL_FAILED_CHOOSE_OUTPUT_FORMAT, rc);
    if (rc >= 0 && (rc = mirror_streams(j->out, first)) < 0)
        veil_fail(failure, VEIL_FAILED_MAKE_OUTPUT_STREAMS, rc);
    if (rc >= 0 && !(j->out->oformat->flags & AVFMT_NOFILE) && (rc = avio_open(&j->out->pb, output, AVIO_FLAG_WRITE)) < 0)
        veil_fail(failure, VEIL_FAILED_CREATE_OUTPUT, rc);
    if (rc >= 0 && (rc = avformat_write_header(j->out, NULL)) < 0)
        veil_fail(failure, VEIL_FAILED_START_OUTPUT, rc);
    avformat_close_input(&first);
    if (rc < 0) {
        veil_join_close(j, 0, NULL);
        return NULL;
    }
    j->header_written = 1;
    return j;
}

void veil_part_close(VeilPart *part) {
    if (!part) return;
    avformat_close_input(&part->in);
    av_packet_free(&part->packet);
    free(part->to);
    free(part);
}

VeilPart *veil_part_open(const VeilJoin *j, const char *url, VeilFailure *failure) {
    VeilPart *part = calloc(1, sizeof(*part));
    if (!part) return NULL;
    if (open_part(url, &part->in, j->out, failure) < 0 || !(part->packet = av_packet_alloc()) ||
        !(part->to = calloc(part->in->nb_streams, sizeof(AVRational)))) {
        veil_part_close(part);
        return NULL;
    }
    for (unsigned i = 0; i < part->in->nb_streams; i++) part->to[i] = j->out->streams[i]->time_base;
    return part;
}

int64_t veil_part_stream_end(const VeilPart *part, int stream, const VeilJoin *j) {
    const AVStream *s = part->in->streams[stream];
    if (s->start_time == AV_NOPTS_VALUE || s->duration == AV_NOPTS_VALUE) return AV_NOPTS_VALUE;
    return av_rescale_q(s->start_time + s->duration, s->time_base, j->out->streams[stream]->time_base);
}

int veil_part_read(VeilPart *part, void **packet, VeilFailure *failure) {
    *packet = NULL;
    int rc, s;
    /* Streams set aside (veil_part_open_streams) may still be read by a demuxer: skipped. */
    while ((rc = av_read_frame(part->in, part->packet)) >= 0 &&
           part->in->streams[s = part->packet->stream_index]->discard == AVDISCARD_ALL)
        av_packet_unref(part->packet);
    if (rc == AVERROR_EOF) return 0;
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_READ_A_PART, rc);
        return rc;
    }
    av_packet_rescale_ts(part->packet, part->in->streams[s]->time_base, part->to[s]);
    part->packet->time_base = part->to[s];
    part->packet->pos = -1;
    *packet = av_packet_clone(part->packet);
    av_packet_unref(part->packet);
    return *packet ? 1 : AVERROR(ENOMEM);
}

int veil_join_write(VeilJoin *j, void *packet, VeilFailure *failure) {
    int rc = av_interleaved_write_frame(j->out, packet); /* takes the packet's data, leaves it blank */
    if (rc < 0) veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
    return rc;
}

/* ---- Splicing a re-render: the previous output's video packets, the
   input's other streams, read without decoding. ---- */

void veil_video_packets_free(VeilVideoPackets *p) {
    if (!p) return;
    free(p->pts);
    free(p->dts);
    free(p->key);
    free(p->extradata);
    memset(p, 0, sizeof(*p));
}

int veil_probe_video_packets(const char *url, VeilVideoPackets *out, VeilFailure *failure) {
    memset(out, 0, sizeof(*out));
    AVFormatContext *format = NULL;
    int rc = 0, capacity = 0, stream = open_video_packets(url, &format, failure);
    if (stream < 0) return stream;
    const AVCodecParameters *par = format->streams[stream]->codecpar;
    out->time_base_num = format->streams[stream]->time_base.num;
    out->time_base_den = format->streams[stream]->time_base.den;
    out->width = par->width;
    out->height = par->height;
    out->h264 = par->codec_id == AV_CODEC_ID_H264;
    if (par->extradata_size > 0 && (out->extradata = malloc(par->extradata_size))) {
        memcpy(out->extradata, par->extradata, par->extradata_size);
        out->extradata_size = par->extradata_size;
    }
    AVPacket *packet = av_packet_alloc();
    while (packet && (rc = av_read_frame(format, packet)) >= 0) {
        if (packet->stream_index == stream) {
            if (out->count == capacity) {
                capacity = capacity ? capacity * 2 : 1024;
                int64_t *pts = realloc(out->pts, capacity * sizeof(int64_t));
                if (pts) out->pts = pts;
                int64_t *dts = realloc(out->dts, capacity * sizeof(int64_t));
                if (dts) out->dts = dts;
                int *key = realloc(out->key, capacity * sizeof(int));
                if (key) out->key = key;
                if (!pts || !dts || !key) { rc = AVERROR(ENOMEM); break; }
            }
            out->pts[out->count] = packet->pts;
            out->dts[out->count] = packet->dts;
            out->key[out->count] = (packet->flags & AV_PKT_FLAG_KEY) != 0;
            out->count++;
        }
        av_packet_unref(packet);
    }
    if ((rc = end_reading(&format, &packet, rc, failure)) < 0) veil_video_packets_free(out);
    return rc;
}

VeilPart *veil_part_open_streams(const char *url, int video, VeilFailure *failure) {
    VeilPart *part = calloc(1, sizeof(*part));
    if (!part) return NULL;
    int best = open_video_packets(url, &part->in, failure);
    if (best < 0 || !(part->packet = av_packet_alloc()) || !(part->to = calloc(part->in->nb_streams, sizeof(AVRational)))) {
        veil_part_close(part);
        return NULL;
    }
    /* open_video_packets set all but the video aside: for the other streams, the other way round. */
    for (unsigned i = 0; i < part->in->nb_streams; i++) {
        part->to[i] = part->in->streams[i]->time_base;
        part->in->streams[i]->discard = ((int)i == best) == (video != 0) ? AVDISCARD_DEFAULT : AVDISCARD_ALL;
    }
    return part;
}
