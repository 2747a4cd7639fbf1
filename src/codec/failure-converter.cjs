// Loaded by path (the SDK bundles it into the workflow sandbox and require()s it in the worker and clients), so it
// is plain CommonJS. encodeCommonAttributes moves failure messages and stack traces into an encoded payload: with
// the encryption codec they are encrypted too, since a message can quote patient data.
const { DefaultFailureConverter } = require('@temporalio/common');

exports.failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
