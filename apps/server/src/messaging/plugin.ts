import fp from 'fastify-plugin';
import type { MessagingConfig } from '../config.ts';
import { createMessenger, type Messenger, type MessengerOptions } from './send.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one sender every module uses (apps/server/src/messaging/send.ts). */
    messenger: Messenger;
  }
}

/** Decorates the app with the messenger on its database; the SMTP connection closes with the app. */
export const messagingPlugin = fp<{ config: MessagingConfig; options?: MessengerOptions }>(
  async (app, { config, options }) => {
    const messenger = createMessenger(app.db, config, options);
    app.decorate('messenger', messenger);
    app.addHook('onClose', async () => messenger.close());
  },
  { name: 'messaging', dependencies: ['db'] },
);
