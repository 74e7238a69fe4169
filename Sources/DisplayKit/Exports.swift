// DisplayKit speaks the model's types and drives the X edge: whoever imports DisplayKit has
// them too.
@_exported import DisplayModel
@_exported import DisplayRender
@_exported import DisplayX11
