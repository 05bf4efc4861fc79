// Time segments of a long video: the keyframes a split may cut at, a reader
// started at one of them, the time of a copied packet, and the join of the
// parts by copying their packets (no re-encoding).
#include "veil_shim.h"

#include <math.h>
#include <stdlib.h>

int veil_probe_keyframes(const char *url, int64_t **times, int *count, int *time_base_num, int *time_base_den,
                         char *error, size_t error_length) {
    AVFormatContext *format = NULL;
    *times = NULL;
    *count = 0;
    int rc = avformat_open_input(&format, url, NULL, NULL);
    if (rc < 0) {
        veil_say(error, error_length, "cannot open the input", rc);
        return rc;
    }
    if ((rc = avformat_find_stream_info(format, NULL)) < 0 ||
        (rc = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0)) < 0) {
        veil_say(error, error_length, "no video stream", rc);
        avformat_close_input(&format);
        return rc;
    }
    int stream = rc, capacity = 0;
    for (unsigned i = 0; i < format->nb_streams; i++)
        if ((int)i != stream) format->streams[i]->discard = AVDISCARD_ALL;
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
    av_packet_free(&packet);
    avformat_close_input(&format);
    if (rc != AVERROR_EOF) {
        veil_say(error, error_length, "cannot read the input", rc);
        free(*times);
        *times = NULL;
        *count = 0;
        return rc < 0 ? rc : AVERROR(EIO);
    }
    return 0;
}

void veil_free(void *pointer) { free(pointer); }

double veil_packet_seconds(const void *packet) {
    const AVPacket *p = packet;
    int64_t t = p->pts != AV_NOPTS_VALUE ? p->pts : p->dts;
    return t == AV_NOPTS_VALUE ? NAN : t * av_q2d(p->time_base);
}

/* Opens part `url` for the join, checking its streams match the first part's. */
static int open_part(const char *url, AVFormatContext **in, const AVFormatContext *first, char *error, size_t error_length) {
    int rc = avformat_open_input(in, url, NULL, NULL);
    if (rc >= 0) rc = avformat_find_stream_info(*in, NULL);
    if (rc < 0) {
        char what[600];
        snprintf(what, sizeof(what), "cannot read part %s", url);
        veil_say(error, error_length, what, rc);
        return rc;
    }
    int same = !first || first->nb_streams == (*in)->nb_streams;
    for (unsigned i = 0; same && first && i < first->nb_streams; i++)
        same = first->streams[i]->codecpar->codec_id == (*in)->streams[i]->codecpar->codec_id;
    if (!same) {
        char what[600];
        snprintf(what, sizeof(what), "part %s does not have the first part's streams", url);
        veil_say(error, error_length, what, 0);
        return AVERROR_INVALIDDATA;
    }
    return 0;
}

int veil_join(const char *const *parts, int count, const char *output, const char *format_name,
              char *error, size_t error_length) {
    AVFormatContext *first = NULL, *out = NULL;
    int rc = open_part(parts[0], &first, NULL, error, error_length);
    if (rc < 0) goto done;
    if ((rc = avformat_alloc_output_context2(&out, NULL, format_name, output)) < 0) {
        veil_say(error, error_length, "cannot choose the output format", rc);
        goto done;
    }
    for (unsigned i = 0; i < first->nb_streams; i++) {
        AVStream *src = first->streams[i], *dst = avformat_new_stream(out, NULL);
        if (!dst || (rc = avcodec_parameters_copy(dst->codecpar, src->codecpar)) < 0) {
            veil_say(error, error_length, "cannot make the output's streams", dst ? rc : 0);
            rc = dst ? rc : AVERROR(ENOMEM);
            goto done;
        }
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
    if (!(out->oformat->flags & AVFMT_NOFILE) && (rc = avio_open(&out->pb, output, AVIO_FLAG_WRITE)) < 0) {
        veil_say(error, error_length, "cannot create the output", rc);
        goto done;
    }
    if ((rc = avformat_write_header(out, NULL)) < 0) {
        veil_say(error, error_length, "cannot start the output", rc);
        goto done;
    }
    AVPacket *packet = av_packet_alloc();
    /* Parts keep the input's timestamps, so copying them in order is the
       whole join; a part overlapping the one before is refused. */
    int64_t *last = calloc(first->nb_streams, sizeof(int64_t));
    for (unsigned i = 0; i < first->nb_streams; i++) last[i] = AV_NOPTS_VALUE;
    for (int p = 0; rc >= 0 && p < count; p++) {
        AVFormatContext *in = NULL;
        if (p == 0) { in = first; first = NULL; }
        else if ((rc = open_part(parts[p], &in, out, error, error_length)) < 0) { avformat_close_input(&in); break; }
        while ((rc = av_read_frame(in, packet)) >= 0) {
            int s = packet->stream_index;
            AVStream *dst = out->streams[s];
            av_packet_rescale_ts(packet, in->streams[s]->time_base, dst->time_base);
            if (packet->dts != AV_NOPTS_VALUE && last[s] != AV_NOPTS_VALUE && packet->dts <= last[s]) {
                char what[600];
                snprintf(what, sizeof(what), "part %s overlaps the part before it (give the parts in order, each once)", parts[p]);
                veil_say(error, error_length, what, 0);
                rc = AVERROR_INVALIDDATA;
                av_packet_unref(packet);
                break;
            }
            if (packet->dts != AV_NOPTS_VALUE) last[s] = packet->dts;
            packet->pos = -1;
            if ((rc = av_interleaved_write_frame(out, packet)) < 0) {
                veil_say(error, error_length, "cannot write the output", rc);
                break;
            }
        }
        if (rc == AVERROR_EOF) rc = 0;
        avformat_close_input(&in);
    }
    free(last);
    av_packet_free(&packet);
    int trailer = av_write_trailer(out);
    if (rc >= 0 && trailer < 0) {
        veil_say(error, error_length, "cannot finish the output", trailer);
        rc = trailer;
    }
done:
    avformat_close_input(&first);
    if (out && !(out->oformat->flags & AVFMT_NOFILE)) avio_closep(&out->pb);
    avformat_free_context(out);
    return rc < 0 ? rc : 0;
}

