import { expect } from 'chai';
import { kafkaErrorText, topicAlreadyExists } from '../../../api-server/src/kafka/kafka-errors.js';

describe('Kafka client errors read as one text', () => {
  it('takes the message, the enumerable fields and every wrapped error', () => {
    const inner = Object.assign(new Error('Received response with error while executing API CreateTopics(v7)'), { apiId: 'TOPIC_ALREADY_EXISTS' });
    const outer = Object.assign(new Error('Multiple errors'), { errors: [new Error('first'), inner] });
    const text = kafkaErrorText(outer);
    expect(text).to.contain('Multiple errors').and.contain('first').and.contain('TOPIC_ALREADY_EXISTS');
    expect(kafkaErrorText('plain')).to.equal('plain');
  });

  it('tells "topic already exists" from other failures, with a circular field too', () => {
    const circular = new Error('Topic with this name already exists.') as Error & { self?: unknown };
    circular.self = circular;
    expect(topicAlreadyExists(circular)).to.equal(true);
    expect(topicAlreadyExists(Object.assign(new Error('Multiple errors'), { errors: [new Error('Topic with this name already exists.')] }))).to.equal(true);
    expect(topicAlreadyExists(new Error('Connection refused'))).to.equal(false);
  });
});
