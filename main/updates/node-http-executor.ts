/**
 * electron-updater's HTTP executor over Node's http/https, for the updater outside Electron (the
 * tests, and anything that runs under plain Node); the Electron app uses electron-updater's own,
 * over Electron's net module. `download` is the Electron executor's, over Node's requests: the
 * base class streams to the file and checks the SHA-512 as it goes.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';

export class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    const send = options.protocol === 'http:' ? httpRequest : httpsRequest;
    return send(options, callback);
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(requestOptions, { destination, options, onCancel, callback: (error) => (error ? reject(error) : resolve(destination)), responseHandler: null }, 0);
    });
  }
}
