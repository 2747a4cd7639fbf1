// Loaded by path (the SDK bundles it into the workflow sandbox and require()s it in the worker and clients), so it
// is plain CommonJS. encodeCommonAttributes moves failure messages and stack traces into an encoded payload: with
// the encryption codec they are encrypted too, since a message is free text that code we do not own may fill with a
// value (Node's JSON.parse quotes the text it failed on). What stays readable without a key is the failure's type and
// the field it names, checked against the forms below, so Temporal UI's event list says "InvalidRequest on field
// input" instead of "Encoded failure".
const { ApplicationFailure, DefaultFailureConverter } = require('@temporalio/common');

// A type is an explicit string of workflows/shared/failure-types.ts or an error's class name; a field is a contract
// field name or the service's `param`. Anything of another form is left encrypted.
const TYPE = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_.[\]-]{0,99}$/;

/** "InvalidRequest on field input": the plaintext message of an encoded application failure, or undefined. */
function reasonLine(err, failure) {
  const type = failure.applicationFailureInfo && failure.applicationFailureInfo.type;
  if (typeof type !== 'string' || !TYPE.test(type)) return undefined;
  const details = err instanceof ApplicationFailure && Array.isArray(err.details) ? err.details[0] : undefined;
  const param = details && typeof details === 'object' ? details.param : undefined;
  return typeof param === 'string' && FIELD.test(param) ? `${type} on field ${param}` : type;
}

class ReasonedFailureConverter extends DefaultFailureConverter {
  errorToFailure(err, payloadConverter, context) {
    const failure = super.errorToFailure(err, payloadConverter, context);
    const reason = reasonLine(err, failure);
    // Decoding restores the original message from the encoded attributes, so clients and workflows never see this line.
    if (reason) failure.message = reason;
    return failure;
  }
}

exports.failureConverter = new ReasonedFailureConverter({ encodeCommonAttributes: true });
