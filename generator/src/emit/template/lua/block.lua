local {{name}} = {{name}}_build()
