// DisplayKit speaks the model's types and draws with the renderer: whoever imports
// DisplayKit has them too. It does not know the X edge: the service or the executable
// passes an X connection in as `any DisplayServer`.
@_exported import DisplayModel
@_exported import DisplayRender
