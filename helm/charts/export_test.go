package charts

// ValuesYAML gives the external tests the values.yaml of a chart archive.
var ValuesYAML = valuesYAML
