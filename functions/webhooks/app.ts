import { newGroup } from '../../lib/http/env';
import { registerCreateWebhook } from './create_webhook';
import { registerDeleteWebhook } from './delete_webhook';
import { registerGetWebhook } from './get_webhook';
import { registerListDeliveries } from './list_deliveries';
import { registerListWebhooks } from './list_webhooks';
import { registerRedeliver } from './redeliver';
import { registerRotateSecret } from './rotate_secret';
import { registerTestWebhook } from './test_webhook';
import { registerUpdateWebhook } from './update_webhook';

/** Webhooks: endpoints, their health and attempt log, test pings, redelivery and secret rolls (scope webhooks.manage). */
export const webhooksGroup = newGroup();
registerListWebhooks(webhooksGroup);
registerCreateWebhook(webhooksGroup);
registerGetWebhook(webhooksGroup);
registerUpdateWebhook(webhooksGroup);
registerDeleteWebhook(webhooksGroup);
registerTestWebhook(webhooksGroup);
registerListDeliveries(webhooksGroup);
registerRedeliver(webhooksGroup);
registerRotateSecret(webhooksGroup);
