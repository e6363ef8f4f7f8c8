package fleet

// Codes gives the external tests the finding codes fleet reports.
var Codes = codes
