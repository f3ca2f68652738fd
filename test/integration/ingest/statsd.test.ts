import { createSocket } from 'node:dgram';
import { expect } from 'chai';
import { eventually, useTestService } from '../../support/service.js';

describe('StatsD over a real UDP socket', function () {
  this.timeout(30_000);
  const svc = useTestService();

  it('a datagram of several lines lands on the tagged workload; bad lines are counted and the socket keeps serving', async () => {
    const socket = createSocket('udp4');
    const send = (text: string) => new Promise<void>((resolve, reject) => socket.send(text, svc.server.ports.statsd, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
    try {
      await send('cpu_percent:0.4|g|#namespace:udp,deployment:api\nmemory_percent:0.5|g|#namespace:udp,deployment:api\nthis is not statsd');
      await send(Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('latin1'));
      await send('latency_ms:80|ms|#namespace:udp,deployment:api');
      await eventually(async () => (((await svc.get('/dataflow')).body as { metrics: number }).metrics === 3 ? true : undefined), 10_000, 'three accepted points');
      expect((await svc.get('/rupture/udp/Deployment/api')).status).to.equal(200);
      const metrics = await (await fetch(`${svc.api}/metrics`)).text();
      expect(metrics).to.match(/rpt_ingest_dropped_total\{reason="statsd_bad_line"\} 2/);
    } finally {
      socket.close();
    }
  });
});
