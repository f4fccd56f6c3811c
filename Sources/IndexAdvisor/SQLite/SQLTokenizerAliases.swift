import SQLFingerprint

// The tokenizer lives in the SQLFingerprint target, which the recorder shares; these names keep the
// library's files using it without an import each.
package typealias SQLToken = SQLFingerprint.SQLToken
package typealias SQLTokenizer = SQLFingerprint.SQLTokenizer
