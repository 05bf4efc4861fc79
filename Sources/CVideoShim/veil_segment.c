// Packets read without decoding: a video's keyframes and packet times (read
// by Swift: VideoSegments, VideoPackets), the time of a copied packet, and
// the join of time segments' parts by copying their packets (no re-encoding).
#include "veil_shim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Opens `url` for reading its video stream's packets alone: the stream's
   index, or negative (why in `failure`). */
static int open_video_packets(const char *url, AVFormatContext **format, VeilFailure *failure) {
    int rc = FF->avformat_open_input(format, url, NULL, NULL);
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_OPEN_INPUT, rc);
        return rc;
    }
    if ((rc = FF->avformat_find_stream_info(*format, NULL)) < 0 ||
        (rc = FF->av_find_best_stream(*format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0)) < 0) {
        veil_fail(failure, VEIL_FAILED_NO_VIDEO_STREAM, rc);
        FF->avformat_close_input(format);
        return rc;
    }
    for (unsigned i = 0; i < (*format)->nb_streams; i++)
        if ((int)i != rc) (*format)->streams[i]->discard = AVDISCARD_ALL;
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
    int video;      /* the video stream's index (veil_part_open_streams) */
};

int veil_packet_stream(const void *packet) { return ((const AVPacket *)packet)->stream_index; }
int veil_packet_key(const void *packet) { return (((const AVPacket *)packet)->flags & AV_PKT_FLAG_KEY) != 0; }

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
    int rc = FF->avformat_open_input(in, url, NULL, NULL);
    if (rc >= 0) rc = FF->avformat_find_stream_info(*in, NULL);
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
        AVStream *src = first->streams[i], *dst = FF->avformat_new_stream(out, NULL);
        if (!dst) return AVERROR(ENOMEM);
        int rc = FF->avcodec_parameters_copy(dst->codecpar, src->codecpar);
        if (rc < 0) return rc;
        dst->codecpar->codec_tag = 0;
        dst->time_base = src->time_base;
        dst->avg_frame_rate = src->avg_frame_rate;
        dst->r_frame_rate = src->r_frame_rate;
        dst->sample_aspect_ratio = src->sample_aspect_ratio;
        FF->av_dict_copy(&dst->metadata, src->metadata, 0);
        size_t size = 0;
        const uint8_t *matrix = FF->av_stream_get_side_data(src, AV_PKT_DATA_DISPLAYMATRIX, &size);
        uint8_t *copy = matrix ? FF->av_stream_new_side_data(dst, AV_PKT_DATA_DISPLAYMATRIX, size) : NULL;
        if (copy) memcpy(copy, matrix, size);
    }
    return 0;
}

int veil_join_close(VeilJoin *j, int finish, VeilFailure *failure) {
    if (!j) return 0;
    int rc = finish && j->header_written ? FF->av_write_trailer(j->out) : 0;
    if (rc < 0) veil_fail(failure, VEIL_FAILED_FINISH_OUTPUT, rc);
    if (j->out && !(j->out->oformat->flags & AVFMT_NOFILE)) {
        int closed = FF->avio_closep(&j->out->pb);
        if (finish && rc >= 0 && closed < 0) veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc = closed);
    }
    FF->avformat_free_context(j->out);
    free(j);
    return rc;
}

VeilJoin *veil_join_open(const char *first_part, const char *output, const char *format_name,
                         VeilFailure *failure) {
    VeilJoin *j = calloc(1, sizeof(*j));
    AVFormatContext *first = NULL;
    int rc = j ? open_part(first_part, &first, NULL, failure) : AVERROR(ENOMEM);
    if (rc >= 0 && (rc = FF->avformat_alloc_output_context2(&j->out, NULL, format_name, output)) < 0)
        veil_fail(failure, VEIL_FAILED_CHOOSE_OUTPUT_FORMAT, rc);
    if (rc >= 0 && (rc = mirror_streams(j->out, first)) < 0)
        veil_fail(failure, VEIL_FAILED_MAKE_OUTPUT_STREAMS, rc);
    if (rc >= 0 && !(j->out->oformat->flags & AVFMT_NOFILE) && (rc = FF->avio_open(&j->out->pb, output, AVIO_FLAG_WRITE)) < 0)
        veil_fail(failure, VEIL_FAILED_CREATE_OUTPUT, rc);
    if (rc >= 0 && (rc = FF->avformat_write_header(j->out, NULL)) < 0)
        veil_fail(failure, VEIL_FAILED_START_OUTPUT, rc);
    FF->avformat_close_input(&first);
    if (rc < 0) {
        veil_join_close(j, 0, NULL);
        return NULL;
    }
    j->header_written = 1;
    return j;
}

void veil_part_close(VeilPart *part) {
    if (!part) return;
    FF->avformat_close_input(&part->in);
    FF->av_packet_free(&part->packet);
    free(part->to);
    free(part);
}

VeilPart *veil_part_open(const VeilJoin *j, const char *url, VeilFailure *failure) {
    VeilPart *part = calloc(1, sizeof(*part));
    if (!part) return NULL;
    if (open_part(url, &part->in, j->out, failure) < 0 || !(part->packet = FF->av_packet_alloc()) ||
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
    return FF->av_rescale_q(s->start_time + s->duration, s->time_base, j->out->streams[stream]->time_base);
}

int veil_part_read(VeilPart *part, void **packet, VeilFailure *failure) {
    *packet = NULL;
    int rc, s;
    /* Streams set aside (veil_part_open_streams) may still be read by a demuxer: skipped. */
    while ((rc = FF->av_read_frame(part->in, part->packet)) >= 0 &&
           part->in->streams[s = part->packet->stream_index]->discard == AVDISCARD_ALL)
        FF->av_packet_unref(part->packet);
    if (rc == AVERROR_EOF) return 0;
    if (rc < 0) {
        veil_fail(failure, VEIL_FAILED_READ_A_PART, rc);
        return rc;
    }
    FF->av_packet_rescale_ts(part->packet, part->in->streams[s]->time_base, part->to[s]);
    part->packet->time_base = part->to[s];
    part->packet->pos = -1;
    *packet = FF->av_packet_clone(part->packet);
    FF->av_packet_unref(part->packet);
    return *packet ? 1 : AVERROR(ENOMEM);
}

int veil_join_write(VeilJoin *j, void *packet, VeilFailure *failure) {
    int rc = FF->av_interleaved_write_frame(j->out, packet); /* takes the packet's data, leaves it blank */
    if (rc < 0) veil_fail(failure, VEIL_FAILED_WRITE_OUTPUT, rc);
    return rc;
}

/* ---- A video's packets or its other streams', read without decoding:
   the keyframes a split may cut at, the GOPs of a previous output, the
   input's audio beside a splice. ---- */

VeilPart *veil_part_open_streams(const char *url, int video, VeilFailure *failure) {
    VeilPart *part = calloc(1, sizeof(*part));
    if (!part) return NULL;
    int best = part->video = open_video_packets(url, &part->in, failure);
    if (best < 0 || !(part->packet = FF->av_packet_alloc()) || !(part->to = calloc(part->in->nb_streams, sizeof(AVRational)))) {
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

void veil_part_video(const VeilPart *part, VeilPartVideo *video) {
    const AVStream *s = part->in->streams[part->video];
    *video = (VeilPartVideo){
        .time_base_num = s->time_base.num, .time_base_den = s->time_base.den,
        .width = s->codecpar->width, .height = s->codecpar->height, .h264 = s->codecpar->codec_id == AV_CODEC_ID_H264,
        .extradata = {s->codecpar->extradata, s->codecpar->extradata_size},
        .index_entries = FF->avformat_index_get_entries_count(s),
    };
}

void veil_part_index_entry(const VeilPart *part, int i, int64_t *timestamp, int *key) {
    const AVIndexEntry *e = FF->avformat_index_get_entry(part->in->streams[part->video], i);
    *timestamp = e->timestamp;
    *key = (e->flags & AVINDEX_KEYFRAME) != 0;
}
