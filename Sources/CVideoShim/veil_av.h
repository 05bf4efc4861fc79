// FFmpeg, loaded when the first video call needs it (internal to the shim).
//
// The shim does not link FFmpeg: its libraries and theirs (libavdevice alone
// pulls in ~210, from SDL to PulseAudio) made every process map ~260 shared
// libraries and bind their symbols before its first line, ~0.1 s of CPU for
// `veil help`, and photo commands need none of them. Each FFmpeg function the
// shim calls is a pointer in `veil_av`, filled on first use by dlopen and
// dlsym of the libraries whose major versions the headers name. The macros
// below make every call in the shim go through the table, after making sure
// it is loaded, so the shim's code reads as plain FFmpeg.
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
/* For the table's every use: loads it, or ends the process with one line
   (the public entry points check veil_video_available first and fail cleanly). */
void veil_av_load_or_exit(void);

static inline void veil_av_ready(void) {
    if (!atomic_load_explicit(&veil_av_loaded, memory_order_acquire)) veil_av_load_or_exit();
}

#ifndef VEIL_AV_NO_MACROS
#define av_audio_fifo_alloc (veil_av_ready(), veil_av.av_audio_fifo_alloc)
#define av_audio_fifo_free (veil_av_ready(), veil_av.av_audio_fifo_free)
#define av_audio_fifo_read (veil_av_ready(), veil_av.av_audio_fifo_read)
#define av_audio_fifo_size (veil_av_ready(), veil_av.av_audio_fifo_size)
#define av_audio_fifo_write (veil_av_ready(), veil_av.av_audio_fifo_write)
#define av_channel_layout_copy (veil_av_ready(), veil_av.av_channel_layout_copy)
#define av_channel_layout_default (veil_av_ready(), veil_av.av_channel_layout_default)
#define av_dict_copy (veil_av_ready(), veil_av.av_dict_copy)
#define av_dict_free (veil_av_ready(), veil_av.av_dict_free)
#define av_dict_parse_string (veil_av_ready(), veil_av.av_dict_parse_string)
#define av_display_rotation_get (veil_av_ready(), veil_av.av_display_rotation_get)
#define av_find_best_stream (veil_av_ready(), veil_av.av_find_best_stream)
#define av_find_input_format (veil_av_ready(), veil_av.av_find_input_format)
#define av_frame_alloc (veil_av_ready(), veil_av.av_frame_alloc)
#define av_frame_clone (veil_av_ready(), veil_av.av_frame_clone)
#define av_frame_copy (veil_av_ready(), veil_av.av_frame_copy)
#define av_frame_free (veil_av_ready(), veil_av.av_frame_free)
#define av_frame_get_buffer (veil_av_ready(), veil_av.av_frame_get_buffer)
#define av_frame_make_writable (veil_av_ready(), veil_av.av_frame_make_writable)
#define av_frame_unref (veil_av_ready(), veil_av.av_frame_unref)
#define av_freep (veil_av_ready(), veil_av.av_freep)
#define av_get_pix_fmt (veil_av_ready(), veil_av.av_get_pix_fmt)
#define av_get_pix_fmt_name (veil_av_ready(), veil_av.av_get_pix_fmt_name)
#define av_image_copy_plane (veil_av_ready(), veil_av.av_image_copy_plane)
#define av_interleaved_write_frame (veil_av_ready(), veil_av.av_interleaved_write_frame)
#define av_log_set_level (veil_av_ready(), veil_av.av_log_set_level)
#define av_opt_set (veil_av_ready(), veil_av.av_opt_set)
#define av_packet_alloc (veil_av_ready(), veil_av.av_packet_alloc)
#define av_packet_clone (veil_av_ready(), veil_av.av_packet_clone)
#define av_packet_free (veil_av_ready(), veil_av.av_packet_free)
#define av_packet_make_writable (veil_av_ready(), veil_av.av_packet_make_writable)
#define av_packet_move_ref (veil_av_ready(), veil_av.av_packet_move_ref)
#define av_packet_rescale_ts (veil_av_ready(), veil_av.av_packet_rescale_ts)
#define av_packet_unref (veil_av_ready(), veil_av.av_packet_unref)
#define av_read_frame (veil_av_ready(), veil_av.av_read_frame)
#define av_rescale_q (veil_av_ready(), veil_av.av_rescale_q)
#define av_samples_alloc_array_and_samples (veil_av_ready(), veil_av.av_samples_alloc_array_and_samples)
#define av_seek_frame (veil_av_ready(), veil_av.av_seek_frame)
#define av_stream_get_side_data (veil_av_ready(), veil_av.av_stream_get_side_data)
#define av_stream_new_side_data (veil_av_ready(), veil_av.av_stream_new_side_data)
#define av_strerror (veil_av_ready(), veil_av.av_strerror)
#define av_version_info (veil_av_ready(), veil_av.av_version_info)
#define av_write_trailer (veil_av_ready(), veil_av.av_write_trailer)
#define avcodec_alloc_context3 (veil_av_ready(), veil_av.avcodec_alloc_context3)
#define avcodec_descriptor_get_by_name (veil_av_ready(), veil_av.avcodec_descriptor_get_by_name)
#define avcodec_find_decoder (veil_av_ready(), veil_av.avcodec_find_decoder)
#define avcodec_find_encoder (veil_av_ready(), veil_av.avcodec_find_encoder)
#define avcodec_find_encoder_by_name (veil_av_ready(), veil_av.avcodec_find_encoder_by_name)
#define avcodec_flush_buffers (veil_av_ready(), veil_av.avcodec_flush_buffers)
#define avcodec_free_context (veil_av_ready(), veil_av.avcodec_free_context)
#define avcodec_open2 (veil_av_ready(), veil_av.avcodec_open2)
#define avcodec_parameters_alloc (veil_av_ready(), veil_av.avcodec_parameters_alloc)
#define avcodec_parameters_copy (veil_av_ready(), veil_av.avcodec_parameters_copy)
#define avcodec_parameters_free (veil_av_ready(), veil_av.avcodec_parameters_free)
#define avcodec_parameters_from_context (veil_av_ready(), veil_av.avcodec_parameters_from_context)
#define avcodec_parameters_to_context (veil_av_ready(), veil_av.avcodec_parameters_to_context)
#define avcodec_receive_frame (veil_av_ready(), veil_av.avcodec_receive_frame)
#define avcodec_receive_packet (veil_av_ready(), veil_av.avcodec_receive_packet)
#define avcodec_send_frame (veil_av_ready(), veil_av.avcodec_send_frame)
#define avcodec_send_packet (veil_av_ready(), veil_av.avcodec_send_packet)
#define avcodec_version (veil_av_ready(), veil_av.avcodec_version)
#define avdevice_register_all (veil_av_ready(), veil_av.avdevice_register_all)
#define avformat_alloc_context (veil_av_ready(), veil_av.avformat_alloc_context)
#define avformat_alloc_output_context2 (veil_av_ready(), veil_av.avformat_alloc_output_context2)
#define avformat_close_input (veil_av_ready(), veil_av.avformat_close_input)
#define avformat_find_stream_info (veil_av_ready(), veil_av.avformat_find_stream_info)
#define avformat_free_context (veil_av_ready(), veil_av.avformat_free_context)
#define avformat_index_get_entries_count (veil_av_ready(), veil_av.avformat_index_get_entries_count)
#define avformat_index_get_entry (veil_av_ready(), veil_av.avformat_index_get_entry)
#define avformat_new_stream (veil_av_ready(), veil_av.avformat_new_stream)
#define avformat_open_input (veil_av_ready(), veil_av.avformat_open_input)
#define avformat_query_codec (veil_av_ready(), veil_av.avformat_query_codec)
#define avformat_version (veil_av_ready(), veil_av.avformat_version)
#define avformat_write_header (veil_av_ready(), veil_av.avformat_write_header)
#define avio_closep (veil_av_ready(), veil_av.avio_closep)
#define avio_flush (veil_av_ready(), veil_av.avio_flush)
#define avio_open (veil_av_ready(), veil_av.avio_open)
#define swr_alloc_set_opts2 (veil_av_ready(), veil_av.swr_alloc_set_opts2)
#define swr_convert (veil_av_ready(), veil_av.swr_convert)
#define swr_free (veil_av_ready(), veil_av.swr_free)
#define swr_get_out_samples (veil_av_ready(), veil_av.swr_get_out_samples)
#define swr_init (veil_av_ready(), veil_av.swr_init)
#define sws_freeContext (veil_av_ready(), veil_av.sws_freeContext)
#define sws_getCachedContext (veil_av_ready(), veil_av.sws_getCachedContext)
#define sws_getContext (veil_av_ready(), veil_av.sws_getContext)
#define sws_scale (veil_av_ready(), veil_av.sws_scale)
#endif

#endif
