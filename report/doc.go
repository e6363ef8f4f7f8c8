// Package report renders a [resolve.Result] for people and machines: the JSON document of
// the output contract ([JSON], [ArgsJSON], [SourcesJSON], [CheckJSON], [ExplainJSON]), and
// the text of `show`, `args`, `sources`, `explain` and `check`.
//
// Every JSON document starts with an [Envelope] (schemaVersion, product, command,
// document); other packages' documents (components, status, compose) embed it too.
//
// Every renderer goes through one [Redactor], so secrets (tokens, passwords inside datastore
// endpoints, S3 keys, proxy credentials) never reach the output unless the caller asks for
// them.
package report
