@_exported import VeilTestSupport
