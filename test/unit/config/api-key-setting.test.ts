import { expect } from 'chai';
import fc from 'fast-check';
import { loadSettings, SettingsError } from '../../../api-server/src/config/load-settings.js';
import { BearerKey } from '../../../api-server/src/http/bearer-auth.js';

/** the SettingsError's message for the key, or undefined when the settings accept it */
function refusal(argv: string[], env: NodeJS.ProcessEnv): string | undefined {
  try {
    loadSettings(argv, env);
    return undefined;
  } catch (error) {
    expect(error).to.be.instanceOf(SettingsError);
    return (error as Error).message;
  }
}

describe('SVC_API_KEY: a key the Authorization header can carry', () => {
  it('a key with a space stops start-up naming SVC_API_KEY and the position, never the key', () => {
    const message = refusal([], { SVC_API_KEY: 'open sesame' });
    expect(message).to.equal(
      'invalid setting SVC_API_KEY: contains a space at character 5 of 11; a bearer key must be visible ASCII without spaces (RFC 6750), or no client can send it',
    );
    expect(message).not.to.include('sesame');
  });

  it('the flag is named when the key came from --api-key', () => {
    expect(refusal(['--api-key', 'k\tk'], { SVC_API_KEY: 'fine' })).to.match(/^invalid setting --api-key: contains a tab at character 2 of 3;/);
  });

  it('control and non-ASCII characters are refused too (an HTTP header is read as Latin-1)', () => {
    expect(refusal([], { SVC_API_KEY: 'key\u0001' })).to.match(/^invalid setting SVC_API_KEY: contains a control character at character 4 of 4;/);
    expect(refusal([], { SVC_API_KEY: 'k\u007f' })).to.match(/contains a control character at character 2 of 2;/);
    expect(refusal([], { SVC_API_KEY: 'clé' })).to.match(/contains a non-ASCII character at character 3 of 3;/);
  });

  it('visible ASCII keys, punctuation included, are kept as given; no key means none', () => {
    for (const key of ['K', 's3cret-key', 'a!b$c:d=e/f+g~h_i.j', '"quoted"', '~'.repeat(200)]) {
      expect(loadSettings([], { SVC_API_KEY: key }).apiKey).to.equal(key);
    }
    expect(loadSettings([], {}).apiKey).to.equal(undefined);
    expect(loadSettings([], { SVC_API_KEY: '' }).apiKey).to.equal(undefined);
  });

  it('every key is either refused at start-up or authenticates with "Bearer <key>" (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1, unit: 'binary' }), fc.string({ minLength: 1 })), (key) => {
        const message = refusal([], { SVC_API_KEY: key });
        if (message !== undefined) {
          expect(message).to.match(/^invalid setting SVC_API_KEY: contains /);
          return;
        }
        expect(new BearerKey(key, true).check(`Bearer ${key}`), JSON.stringify(key)).to.equal('ok');
      }),
      { numRuns: 2000 },
    );
  });
});
