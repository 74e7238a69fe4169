// DisplayKit speaks the model's types: whoever imports DisplayKit has them too.
@_exported import DisplayModel
