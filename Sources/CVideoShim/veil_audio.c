// Audio the output container cannot take as it is (PCM into mp4): decoded,
// resampled through a FIFO into the encoder's frame size, and encoded with
// the container's own audio codec (AAC for mp4).
#include "veil_shim.h"

#include <libavutil/audio_fifo.h>
#include <libswresample/swresample.h>

struct VeilAudioTranscoder {
    AVCodecContext *decoder, *encoder;
    SwrContext *resampler;
    AVAudioFifo *fifo;
    AVStream *stream;
    AVFrame *decoded, *chunk;
    AVPacket *packet;
    int64_t next_pts;
};

void veil_audio_free(VeilAudioTranscoder *t) {
    if (!t) return;
    FF->avcodec_free_context(&t->decoder);
    FF->avcodec_free_context(&t->encoder);
    FF->swr_free(&t->resampler);
    FF->av_audio_fifo_free(t->fifo);
    FF->av_frame_free(&t->decoded);
    FF->av_frame_free(&t->chunk);
    FF->av_packet_free(&t->packet);
    free(t);
}

static int open_decoder(VeilAudioTranscoder *t, const VeilStreamCopy *src) {
    const AVCodec *codec = FF->avcodec_find_decoder(src->parameters->codec_id);
    if (!codec) return AVERROR_DECODER_NOT_FOUND;
    t->decoder = FF->avcodec_alloc_context3(codec);
    FF->avcodec_parameters_to_context(t->decoder, src->parameters);
    t->decoder->pkt_timebase = src->time_base;
    return FF->avcodec_open2(t->decoder, codec, NULL);
}

static int open_encoder(VeilAudioTranscoder *t, AVFormatContext *format) {
    enum AVCodecID id = format->oformat->audio_codec;
    const AVCodec *codec = id != AV_CODEC_ID_NONE ? FF->avcodec_find_encoder(id) : NULL;
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    t->encoder = FF->avcodec_alloc_context3(codec);
    t->encoder->sample_fmt = codec->sample_fmts ? codec->sample_fmts[0] : t->decoder->sample_fmt;
    t->encoder->sample_rate = t->decoder->sample_rate;
    FF->av_channel_layout_copy(&t->encoder->ch_layout, &t->decoder->ch_layout);
    if (t->encoder->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC)
        FF->av_channel_layout_default(&t->encoder->ch_layout, t->decoder->ch_layout.nb_channels);
    t->encoder->bit_rate = 128000;
    t->encoder->time_base = (AVRational){1, t->encoder->sample_rate};
    if (format->oformat->flags & AVFMT_GLOBALHEADER) t->encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    return FF->avcodec_open2(t->encoder, codec, NULL);
}

VeilAudioTranscoder *veil_audio_open(AVFormatContext *format, const VeilStreamCopy *src) {
    VeilAudioTranscoder *t = calloc(1, sizeof(*t));
    if (!t) return NULL;
    if (open_decoder(t, src) < 0 || open_encoder(t, format) < 0) goto fail;
    if (FF->swr_alloc_set_opts2(&t->resampler, &t->encoder->ch_layout, t->encoder->sample_fmt, t->encoder->sample_rate,
                            &t->decoder->ch_layout, t->decoder->sample_fmt, t->decoder->sample_rate, 0, NULL) < 0 ||
        FF->swr_init(t->resampler) < 0)
        goto fail;
    t->fifo = FF->av_audio_fifo_alloc(t->encoder->sample_fmt, t->encoder->ch_layout.nb_channels, 1);
    t->stream = FF->avformat_new_stream(format, NULL);
    if (!t->fifo || !t->stream) goto fail;
    FF->avcodec_parameters_from_context(t->stream->codecpar, t->encoder);
    t->stream->time_base = t->encoder->time_base;
    t->decoded = FF->av_frame_alloc();
    t->chunk = FF->av_frame_alloc();
    t->packet = FF->av_packet_alloc();
    return t;
fail:
    veil_audio_free(t);
    return NULL;
}

int veil_audio_stream_index(const VeilAudioTranscoder *t) { return t->stream->index; }

/* Encodes whole encoder frames from the FIFO (and the rest, when flushing). */
static int encode(AVFormatContext *format, VeilAudioTranscoder *t, int flush) {
    int size = t->encoder->frame_size > 0 ? t->encoder->frame_size : 1024;
    while (FF->av_audio_fifo_size(t->fifo) >= size || (flush && FF->av_audio_fifo_size(t->fifo) > 0)) {
        int n = FFMIN(size, FF->av_audio_fifo_size(t->fifo));
        FF->av_frame_unref(t->chunk);
        t->chunk->nb_samples = n;
        t->chunk->format = t->encoder->sample_fmt;
        t->chunk->sample_rate = t->encoder->sample_rate;
        FF->av_channel_layout_copy(&t->chunk->ch_layout, &t->encoder->ch_layout);
        if (FF->av_frame_get_buffer(t->chunk, 0) < 0) return AVERROR(ENOMEM);
        FF->av_audio_fifo_read(t->fifo, (void **)t->chunk->data, n);
        t->chunk->pts = t->next_pts;
        t->next_pts += n;
        int rc = FF->avcodec_send_frame(t->encoder, t->chunk);
        if (rc < 0) return rc;
        if ((rc = veil_drain_encoder(format, t->encoder, t->stream, t->packet, NULL)) < 0) return rc;
    }
    if (flush) {
        FF->avcodec_send_frame(t->encoder, NULL);
        return veil_drain_encoder(format, t->encoder, t->stream, t->packet, NULL);
    }
    return 0;
}

/* Resamples the decoded frame into the FIFO. */
static int resample(VeilAudioTranscoder *t) {
    int room = FF->swr_get_out_samples(t->resampler, t->decoded->nb_samples);
    uint8_t **out = NULL;
    if (FF->av_samples_alloc_array_and_samples(&out, NULL, t->encoder->ch_layout.nb_channels, room, t->encoder->sample_fmt, 0) < 0)
        return AVERROR(ENOMEM);
    int got = FF->swr_convert(t->resampler, out, room, (const uint8_t **)t->decoded->extended_data, t->decoded->nb_samples);
    if (got > 0) FF->av_audio_fifo_write(t->fifo, (void **)out, got);
    FF->av_freep(&out[0]);
    FF->av_freep(&out);
    FF->av_frame_unref(t->decoded);
    return 0;
}

int veil_audio_feed(AVFormatContext *format, VeilAudioTranscoder *t, AVPacket *p) {
    int rc = FF->avcodec_send_packet(t->decoder, p);
    if (rc < 0 && rc != AVERROR_EOF && rc != AVERROR_INVALIDDATA) return rc;
    while ((rc = FF->avcodec_receive_frame(t->decoder, t->decoded)) == 0) {
        if ((rc = resample(t)) < 0 || (rc = encode(format, t, 0)) < 0) return rc;
    }
    if (rc != AVERROR(EAGAIN) && rc != AVERROR_EOF) return rc;
    return p ? 0 : encode(format, t, 1);
}
