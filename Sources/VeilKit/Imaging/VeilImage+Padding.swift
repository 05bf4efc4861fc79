import CVipsShim

extension VeilImage {
    /// The image in the top-left corner of a black `width` x `height` canvas.
    /// Networks that need sides in multiples of 32 get them this way without
    /// the image being stretched, so boxes map back by the resize alone.
    public func padded(toWidth width: Int, height: Int) throws -> VeilImage {
        guard width >= self.width, height >= self.height else {
            throw VeilError.invalidArgument("pad \(self.width)x\(self.height) to \(width)x\(height)")
        }
        if width == self.width && height == self.height { return self }
        return VeilImage(try handle.call("embed", "x=0,y=0,width=\(width),height=\(height),extend=black"))
    }
}
