import { expect } from 'chai';
import { ControlTopicError } from '../../../api-server/src/control/control-write-refused.js';
import { controlWrite } from '../../../api-server/src/http/control-write.js';
import { HttpError } from '../../../api-server/src/model/http-errors.js';

describe('http/control-write: a refused control-topic write is a 503 naming the topic', () => {
  it('answers what the write answered', async () => {
    expect(await controlWrite(async () => ({ id: 'sup_1' }))).to.deep.equal({ id: 'sup_1' });
  });

  it('turns a ControlTopicError into 503 control_unavailable with its message and Retry-After', async () => {
    const error = await controlWrite(() => Promise.reject(new ControlTopicError('control topic faultline.control not reachable'))).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(HttpError);
    const http = error as HttpError;
    expect([http.status, http.code, http.headers]).to.deep.equal([503, 'control_unavailable', { 'Retry-After': '1' }]);
    expect(http.message).to.equal('control topic faultline.control not reachable');
  });

  it('passes any other error through unchanged', async () => {
    const original = new RangeError('not a topic problem');
    expect(await controlWrite(() => Promise.reject(original)).catch((e: unknown) => e)).to.equal(original);
  });
});
