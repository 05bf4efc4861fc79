// The vocabulary speaks VeilKit's types (`InputError`, the options it fills
// in): whoever imports it gets them too, without a second import.
@_exported import VeilKit
