import { closeSync, fstatSync, openSync, readdirSync, readSync, type Stats, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import ssh2 from 'ssh2';

const { Server, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

/**
 * An in-process SFTP server (the `ssh2` package's Server) serving one directory read-only, with
 * one user and password: what the SFTP pull is tested against, never the network.
 */
export type SftpTestServer = { port: number; close(): Promise<void> };

const attrsOf = (s: Stats) => ({
  mode: s.mode,
  uid: s.uid,
  gid: s.gid,
  size: s.size,
  atime: Math.floor(s.atimeMs / 1000),
  mtime: Math.floor(s.mtimeMs / 1000),
});

export async function startSftpServer(root: string, user: { username: string; password: string }): Promise<SftpTestServer> {
  const hostKey = utils.generateKeyPairSync('ed25519').private;
  const local = (path: string) => join(root, normalize(`/${path}`));
  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === user.username && ctx.password === user.password) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const files = new Map<number, number>();
          const dirs = new Map<number, { path: string; done: boolean }>();
          let next = 0;
          const handle = (n: number) => {
            const b = Buffer.alloc(4);
            b.writeUInt32BE(n, 0);
            return b;
          };
          const fail = (reqid: number, code = STATUS_CODE.NO_SUCH_FILE) => sftp.status(reqid, code);
          sftp.on('REALPATH', (reqid, path) => {
            const clean = normalize(`/${path}`);
            sftp.name(reqid, [{ filename: clean, longname: clean, attrs: attrsOf(statSync(root)) }]);
          });
          const stat = (reqid: number, path: string) => {
            try {
              sftp.attrs(reqid, attrsOf(statSync(local(path))));
            } catch {
              fail(reqid);
            }
          };
          sftp.on('STAT', stat);
          sftp.on('LSTAT', stat);
          sftp.on('OPEN', (reqid, path) => {
            try {
              const fd = openSync(local(path), 'r');
              files.set(next, fd);
              sftp.handle(reqid, handle(next++));
            } catch {
              fail(reqid);
            }
          });
          sftp.on('FSTAT', (reqid, h) => {
            const fd = files.get(h.readUInt32BE(0));
            if (fd === undefined) return fail(reqid, STATUS_CODE.FAILURE);
            sftp.attrs(reqid, attrsOf(fstatSync(fd)));
          });
          sftp.on('READ', (reqid, h, offset, length) => {
            const fd = files.get(h.readUInt32BE(0));
            if (fd === undefined) return fail(reqid, STATUS_CODE.FAILURE);
            const buffer = Buffer.alloc(length);
            const read = readSync(fd, buffer, 0, length, offset);
            if (read === 0) return sftp.status(reqid, STATUS_CODE.EOF);
            sftp.data(reqid, buffer.subarray(0, read));
          });
          sftp.on('OPENDIR', (reqid, path) => {
            try {
              statSync(local(path));
              dirs.set(next, { path: local(path), done: false });
              sftp.handle(reqid, handle(next++));
            } catch {
              fail(reqid);
            }
          });
          sftp.on('READDIR', (reqid, h) => {
            const dir = dirs.get(h.readUInt32BE(0));
            if (!dir) return fail(reqid, STATUS_CODE.FAILURE);
            if (dir.done) return sftp.status(reqid, STATUS_CODE.EOF);
            dir.done = true;
            sftp.name(
              reqid,
              readdirSync(dir.path).map((name) => {
                const s = statSync(join(dir.path, name));
                return {
                  filename: name,
                  longname: `${s.isDirectory() ? 'd' : '-'}rw-r--r-- 1 u g ${s.size} Jan 1 00:00 ${name}`,
                  attrs: attrsOf(s),
                };
              }),
            );
          });
          sftp.on('CLOSE', (reqid, h) => {
            const n = h.readUInt32BE(0);
            const fd = files.get(n);
            if (fd !== undefined) closeSync(fd);
            files.delete(n);
            dirs.delete(n);
            sftp.status(reqid, STATUS_CODE.OK);
          });
        });
      });
    });
    client.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
