#ifndef VEIL_ORT_H
#define VEIL_ORT_H

/* ONNX Runtime's C function table (OrtApi), written out here because the
   runtime ships as a bare libonnxruntime.so (opened with dlopen) without its
   header. The table's order is fixed across releases and new entries are
   only appended (docs: onnxruntime_c_api.h, `struct OrtApi`), so this struct
   stops at the last entry Veil calls. Entries Veil calls carry their C
   signatures; the others are placeholders named after their functions, so
   every field sits at its real position. The assertions below pin the
   position of each entry Veil calls: this is the only place an index of the
   table is written. Swift calls them by name: `api.pointee.Run(...)`. */

#include <stddef.h>
#include <stdint.h>

typedef struct OrtEnv OrtEnv;
typedef struct OrtStatus OrtStatus;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtSession OrtSession;
typedef struct OrtValue OrtValue;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtAllocator OrtAllocator;

typedef enum OrtLoggingLevel { ORT_LOGGING_LEVEL_VERBOSE, ORT_LOGGING_LEVEL_INFO, ORT_LOGGING_LEVEL_WARNING, ORT_LOGGING_LEVEL_ERROR, ORT_LOGGING_LEVEL_FATAL, } OrtLoggingLevel;

typedef enum GraphOptimizationLevel { ORT_DISABLE_ALL = 0, ORT_ENABLE_BASIC = 1, ORT_ENABLE_EXTENDED = 2, ORT_ENABLE_ALL = 99, } GraphOptimizationLevel;

typedef enum OrtAllocatorType { OrtInvalidAllocator = -1, OrtDeviceAllocator = 0, OrtArenaAllocator = 1, } OrtAllocatorType;

typedef enum OrtMemType { OrtMemTypeCPUInput = -2, OrtMemTypeCPUOutput = -1, OrtMemTypeDefault = 0, } OrtMemType;

/* Only the element types Veil's models take and give: floats, and the bytes of 8-bit models' images and features. */
typedef enum ONNXTensorElementDataType { ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED = 0, ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT = 1, ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 = 2, } ONNXTensorElementDataType;

/* What OrtGetApiBase() returns. */
typedef struct OrtApiBase {
    const struct OrtApi *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

typedef const OrtApiBase *(*OrtGetApiBaseFunction)(void);

/* The API version Veil asks GetApi for. */
#define VEIL_ORT_API_VERSION 23

typedef struct OrtApi {
    /*   0 */ void *CreateStatus;
    /*   1 */ void *GetErrorCode;
    /*   2 */ const char *(*GetErrorMessage)(const OrtStatus *status);
    /*   3 */ OrtStatus *(*CreateEnv)(OrtLoggingLevel log_severity_level, const char *logid, OrtEnv **out);
    /*   4 */ void *CreateEnvWithCustomLogger;
    /*   5 */ void *EnableTelemetryEvents;
    /*   6 */ void *DisableTelemetryEvents;
    /*   7 */ void *CreateSession;
    /*   8 */ OrtStatus *(*CreateSessionFromArray)(const OrtEnv *env, const void *model_data, size_t model_data_length,
                                         const OrtSessionOptions *options, OrtSession **out);
    /*   9 */ OrtStatus *(*Run)(OrtSession *session, const OrtRunOptions *run_options,
                      const char *const *input_names, const OrtValue *const *inputs, size_t input_len,
                      const char *const *output_names, size_t output_names_len, OrtValue **outputs);
    /*  10 */ OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **options);
    /*  11 */ OrtStatus *(*SetOptimizedModelFilePath)(OrtSessionOptions *options, const char *optimized_model_filepath);
    /*  12 */ void *CloneSessionOptions;
    /*  13 */ void *SetSessionExecutionMode;
    /*  14 */ void *EnableProfiling;
    /*  15 */ void *DisableProfiling;
    /*  16 */ void *EnableMemPattern;
    /*  17 */ OrtStatus *(*DisableMemPattern)(OrtSessionOptions *options);
    /*  18 */ void *EnableCpuMemArena;
    /*  19 */ void *DisableCpuMemArena;
    /*  20 */ void *SetSessionLogId;
    /*  21 */ void *SetSessionLogVerbosityLevel;
    /*  22 */ void *SetSessionLogSeverityLevel;
    /*  23 */ OrtStatus *(*SetSessionGraphOptimizationLevel)(OrtSessionOptions *options, GraphOptimizationLevel level);
    /*  24 */ OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *options, int intra_op_num_threads);
    /*  25 */ OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions *options, int inter_op_num_threads);
    /*  26 */ void *CreateCustomOpDomain;
    /*  27 */ void *CustomOpDomain_Add;
    /*  28 */ void *AddCustomOpDomain;
    /*  29 */ void *RegisterCustomOpsLibrary;
    /*  30 */ OrtStatus *(*SessionGetInputCount)(const OrtSession *session, size_t *out);
    /*  31 */ OrtStatus *(*SessionGetOutputCount)(const OrtSession *session, size_t *out);
    /*  32 */ void *SessionGetOverridableInitializerCount;
    /*  33 */ void *SessionGetInputTypeInfo;
    /*  34 */ void *SessionGetOutputTypeInfo;
    /*  35 */ void *SessionGetOverridableInitializerTypeInfo;
    /*  36 */ OrtStatus *(*SessionGetInputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char **value);
    /*  37 */ OrtStatus *(*SessionGetOutputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char **value);
    /*  38 */ void *SessionGetOverridableInitializerName;
    /*  39 */ void *CreateRunOptions;
    /*  40 */ void *RunOptionsSetRunLogVerbosityLevel;
    /*  41 */ void *RunOptionsSetRunLogSeverityLevel;
    /*  42 */ void *RunOptionsSetRunTag;
    /*  43 */ void *RunOptionsGetRunLogVerbosityLevel;
    /*  44 */ void *RunOptionsGetRunLogSeverityLevel;
    /*  45 */ void *RunOptionsGetRunTag;
    /*  46 */ void *RunOptionsSetTerminate;
    /*  47 */ void *RunOptionsUnsetTerminate;
    /*  48 */ void *CreateTensorAsOrtValue;
    /*  49 */ OrtStatus *(*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *info, void *p_data, size_t p_data_len,
                                                  const int64_t *shape, size_t shape_len,
                                                  ONNXTensorElementDataType type, OrtValue **out);
    /*  50 */ void *IsTensor;
    /*  51 */ OrtStatus *(*GetTensorMutableData)(OrtValue *value, void **out);
    /*  52 */ void *FillStringTensor;
    /*  53 */ void *GetStringTensorDataLength;
    /*  54 */ void *GetStringTensorContent;
    /*  55 */ void *CastTypeInfoToTensorInfo;
    /*  56 */ void *GetOnnxTypeFromTypeInfo;
    /*  57 */ void *CreateTensorTypeAndShapeInfo;
    /*  58 */ void *SetTensorElementType;
    /*  59 */ void *SetDimensions;
    /*  60 */ OrtStatus *(*GetTensorElementType)(const OrtTensorTypeAndShapeInfo *info, ONNXTensorElementDataType *out);
    /*  61 */ OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
    /*  62 */ OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *dim_values, size_t dim_values_length);
    /*  63 */ void *GetSymbolicDimensions;
    /*  64 */ void *GetTensorShapeElementCount;
    /*  65 */ OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *value, OrtTensorTypeAndShapeInfo **out);
    /*  66 */ void *GetTypeInfo;
    /*  67 */ void *GetValueType;
    /*  68 */ void *CreateMemoryInfo;
    /*  69 */ OrtStatus *(*CreateCpuMemoryInfo)(OrtAllocatorType type, OrtMemType mem_type, OrtMemoryInfo **out);
    /*  70 */ void *CompareMemoryInfo;
    /*  71 */ void *MemoryInfoGetName;
    /*  72 */ void *MemoryInfoGetId;
    /*  73 */ void *MemoryInfoGetMemType;
    /*  74 */ void *MemoryInfoGetType;
    /*  75 */ void *AllocatorAlloc;
    /*  76 */ OrtStatus *(*AllocatorFree)(OrtAllocator *allocator, void *p);
    /*  77 */ void *AllocatorGetInfo;
    /*  78 */ OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator **out);
    /*  79 */ void *AddFreeDimensionOverride;
    /*  80 */ void *GetValue;
    /*  81 */ void *GetValueCount;
    /*  82 */ void *CreateValue;
    /*  83 */ void *CreateOpaqueValue;
    /*  84 */ void *GetOpaqueValue;
    /*  85 */ void *KernelInfoGetAttribute_float;
    /*  86 */ void *KernelInfoGetAttribute_int64;
    /*  87 */ void *KernelInfoGetAttribute_string;
    /*  88 */ void *KernelContext_GetInputCount;
    /*  89 */ void *KernelContext_GetOutputCount;
    /*  90 */ void *KernelContext_GetInput;
    /*  91 */ void *KernelContext_GetOutput;
    /*  92 */ void (*ReleaseEnv)(OrtEnv *input);
    /*  93 */ void (*ReleaseStatus)(OrtStatus *input);
    /*  94 */ void (*ReleaseMemoryInfo)(OrtMemoryInfo *input);
    /*  95 */ void (*ReleaseSession)(OrtSession *input);
    /*  96 */ void (*ReleaseValue)(OrtValue *input);
    /*  97 */ void *ReleaseRunOptions;
    /*  98 */ void *ReleaseTypeInfo;
    /*  99 */ void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *input);
    /* 100 */ void (*ReleaseSessionOptions)(OrtSessionOptions *input);
    /* 101 */ void *ReleaseCustomOpDomain;
    /* 102 */ void *GetDenotationFromTypeInfo;
    /* 103 */ void *CastTypeInfoToMapTypeInfo;
    /* 104 */ void *CastTypeInfoToSequenceTypeInfo;
    /* 105 */ void *GetMapKeyType;
    /* 106 */ void *GetMapValueType;
    /* 107 */ void *GetSequenceElementType;
    /* 108 */ void *ReleaseMapTypeInfo;
    /* 109 */ void *ReleaseSequenceTypeInfo;
    /* 110 */ void *SessionEndProfiling;
    /* 111 */ void *SessionGetModelMetadata;
    /* 112 */ void *ModelMetadataGetProducerName;
    /* 113 */ void *ModelMetadataGetGraphName;
    /* 114 */ void *ModelMetadataGetDomain;
    /* 115 */ void *ModelMetadataGetDescription;
    /* 116 */ void *ModelMetadataLookupCustomMetadataMap;
    /* 117 */ void *ModelMetadataGetVersion;
    /* 118 */ void *ReleaseModelMetadata;
    /* 119 */ void *CreateEnvWithGlobalThreadPools;
    /* 120 */ void *DisablePerSessionThreads;
    /* 121 */ void *CreateThreadingOptions;
    /* 122 */ void *ReleaseThreadingOptions;
    /* 123 */ void *ModelMetadataGetCustomMetadataMapKeys;
    /* 124 */ void *AddFreeDimensionOverrideByName;
    /* 125 */ void *GetAvailableProviders;
    /* 126 */ void *ReleaseAvailableProviders;
    /* 127 */ void *GetStringTensorElementLength;
    /* 128 */ void *GetStringTensorElement;
    /* 129 */ void *FillStringTensorElement;
    /* 130 */ OrtStatus *(*AddSessionConfigEntry)(OrtSessionOptions *options, const char *config_key, const char *config_value);
} OrtApi;

#define VEIL_ORT_SLOT(field, index) \
    _Static_assert(offsetof(OrtApi, field) == (index) * sizeof(void *), #field " is entry " #index " of OrtApi")
VEIL_ORT_SLOT(GetErrorMessage, 2);
VEIL_ORT_SLOT(CreateEnv, 3);
VEIL_ORT_SLOT(CreateSessionFromArray, 8);
VEIL_ORT_SLOT(Run, 9);
VEIL_ORT_SLOT(CreateSessionOptions, 10);
VEIL_ORT_SLOT(SetOptimizedModelFilePath, 11);
VEIL_ORT_SLOT(DisableMemPattern, 17);
VEIL_ORT_SLOT(SetSessionGraphOptimizationLevel, 23);
VEIL_ORT_SLOT(SetIntraOpNumThreads, 24);
VEIL_ORT_SLOT(SetInterOpNumThreads, 25);
VEIL_ORT_SLOT(SessionGetInputCount, 30);
VEIL_ORT_SLOT(SessionGetOutputCount, 31);
VEIL_ORT_SLOT(SessionGetInputName, 36);
VEIL_ORT_SLOT(SessionGetOutputName, 37);
VEIL_ORT_SLOT(CreateTensorWithDataAsOrtValue, 49);
VEIL_ORT_SLOT(GetTensorMutableData, 51);
VEIL_ORT_SLOT(GetTensorElementType, 60);
VEIL_ORT_SLOT(GetDimensionsCount, 61);
VEIL_ORT_SLOT(GetDimensions, 62);
VEIL_ORT_SLOT(GetTensorTypeAndShape, 65);
VEIL_ORT_SLOT(CreateCpuMemoryInfo, 69);
VEIL_ORT_SLOT(AllocatorFree, 76);
VEIL_ORT_SLOT(GetAllocatorWithDefaultOptions, 78);
VEIL_ORT_SLOT(ReleaseEnv, 92);
VEIL_ORT_SLOT(ReleaseStatus, 93);
VEIL_ORT_SLOT(ReleaseMemoryInfo, 94);
VEIL_ORT_SLOT(ReleaseSession, 95);
VEIL_ORT_SLOT(ReleaseValue, 96);
VEIL_ORT_SLOT(ReleaseTensorTypeAndShapeInfo, 99);
VEIL_ORT_SLOT(ReleaseSessionOptions, 100);
VEIL_ORT_SLOT(AddSessionConfigEntry, 130);
_Static_assert(offsetof(OrtApiBase, GetVersionString) == sizeof(void *), "GetVersionString is entry 1 of OrtApiBase");
#undef VEIL_ORT_SLOT

#endif
