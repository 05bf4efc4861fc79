import VeilKit
import VeilVocabulary

extension SaliencyCommand {
    static let definition = CommandSpec.imageReport(
        "saliency", summary: "where the objects are, or where a viewer looks: boxes as a table or JSON, the heat map as a picture",
        details: "objectness: the subject model's foreground map (U^2-Net, trained for salient objects), a box round each region that "
                 + "reaches half its peak (taken down to 0.4 of it); attention: that map softened, with each face found added on top (faces draw the first look), "
                 + "one box round it all. Boxes in pixels of the upright image, origin top left; the heat map is 68x68, as Vision's.",
        options: [
            Options.spec(\.kind), ReportOptions.spec(\.json), ReportOptions.spec(\.heatmap),
        ])
        .runs { try await run($0) }
        .examples(.init("veil saliency photo.jpg", "the salient objects' boxes"),
                  .init("veil saliency photo.jpg --kind attention --heatmap heat.png", "where a viewer looks first, and its heat map"))
}
