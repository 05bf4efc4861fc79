// FFmpeg, loaded when the first video call needs it (internal to the shim).
//
// The shim does not link FFmpeg: its libraries and theirs (libavdevice alone
// pulls in ~210, from SDL to PulseAudio) made every process map ~260 shared
// libraries and bind their symbols before its first line, ~0.1 s of CPU for
// `veil help`, and photo commands need none of them. Each FFmpeg function the
// shim calls is a pointer in `veil_av`, filled on first use by dlopen and
// dlsym of the libraries whose major versions the headers name. The names are
// listed once, in VEIL_AV_FUNCTIONS: the table's members and the loader's
// lookups are made from that list, and the shim calls each as FF->name(...).
#ifndef VEIL_AV_H
#define VEIL_AV_H

#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <stdatomic.h>

#define VEIL_AV_FUNCTIONS(X) \
    X(av_audio_fifo_alloc) \
    X(av_audio_fifo_free) \
    X(av_audio_fifo_read) \
    X(av_audio_fifo_size) \
    X(av_audio_fifo_write) \
    X(av_channel_layout_copy) \
    X(av_channel_layout_default) \
    X(av_dict_copy) \
    X(av_dict_free) \
    X(av_dict_parse_string) \
    X(av_display_rotation_get) \
    X(av_find_best_stream) \
    X(av_find_input_format) \
    X(av_frame_alloc) \
    X(av_frame_clone) \
    X(av_frame_copy) \
    X(av_frame_free) \
    X(av_frame_get_buffer) \
    X(av_frame_make_writable) \
    X(av_frame_unref) \
    X(av_freep) \
    X(av_get_pix_fmt) \
    X(av_get_pix_fmt_name) \
    X(av_image_copy_plane) \
    X(av_interleaved_write_frame) \
    X(av_log_set_level) \
    X(av_opt_set) \
    X(av_packet_alloc) \
    X(av_packet_clone) \
    X(av_packet_free) \
    X(av_packet_make_writable) \
    X(av_packet_move_ref) \
    X(av_packet_rescale_ts) \
    X(av_packet_unref) \
    X(av_read_frame) \
    X(av_rescale_q) \
    X(av_samples_alloc_array_and_samples) \
    X(av_seek_frame) \
    X(av_stream_get_side_data) \
    X(av_stream_new_side_data) \
    X(av_strerror) \
    X(av_version_info) \
    X(av_write_trailer) \
    X(avcodec_alloc_context3) \
    X(avcodec_descriptor_get_by_name) \
    X(avcodec_find_decoder) \
    X(avcodec_find_encoder) \
    X(avcodec_find_encoder_by_name) \
    X(avcodec_flush_buffers) \
    X(avcodec_free_context) \
    X(avcodec_open2) \
    X(avcodec_parameters_alloc) \
    X(avcodec_parameters_copy) \
    X(avcodec_parameters_free) \
    X(avcodec_parameters_from_context) \
    X(avcodec_parameters_to_context) \
    X(avcodec_receive_frame) \
    X(avcodec_receive_packet) \
    X(avcodec_send_frame) \
    X(avcodec_send_packet) \
    X(avcodec_version) \
    X(avdevice_register_all) \
    X(avformat_alloc_context) \
    X(avformat_alloc_output_context2) \
    X(avformat_close_input) \
    X(avformat_find_stream_info) \
    X(avformat_free_context) \
    X(avformat_index_get_entries_count) \
    X(avformat_index_get_entry) \
    X(avformat_new_stream) \
    X(avformat_open_input) \
    X(avformat_query_codec) \
    X(avformat_version) \
    X(avformat_write_header) \
    X(avio_closep) \
    X(avio_flush) \
    X(avio_open) \
    X(swr_alloc_set_opts2) \
    X(swr_convert) \
    X(swr_free) \
    X(swr_get_out_samples) \
    X(swr_init) \
    X(sws_freeContext) \
    X(sws_getCachedContext) \
    X(sws_getContext) \
    X(sws_scale) \

struct veil_av_table {
#define VEIL_AV_MEMBER(name) __typeof__(&name) name;
    VEIL_AV_FUNCTIONS(VEIL_AV_MEMBER)
#undef VEIL_AV_MEMBER
};

extern struct veil_av_table veil_av;
extern atomic_int veil_av_loaded;

/* Loads the libraries once; 1 when every function was found. On failure,
   veil_video_missing() (veil_video.h) names what was not. */
int veil_av_load(void);

/* The table, loaded on first use. Swift asks for the libraries before its
   first video call (`VideoLibraries.require`) and says what is missing; a
   call reached without them is a function pointer left NULL. */
static inline const struct veil_av_table *veil_ff(void) {
    if (!atomic_load_explicit(&veil_av_loaded, memory_order_acquire)) veil_av_load();
    return &veil_av;
}

/* Every FFmpeg call in the shim: FF->av_frame_alloc() is av_frame_alloc()
   through the table. (FFmpeg's static inline helpers, av_q2d, av_inv_q, and
   its macros are called as they are.) */
#define FF (veil_ff())

#endif
