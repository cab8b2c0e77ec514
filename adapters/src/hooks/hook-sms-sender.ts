import type { HookDispatcher } from "@authsvc/core/hooks";
import type { SmsSender } from "@authsvc/core/messaging";

/**
 * An `SmsSender` that hands every text to the send-SMS hook instead of the gateway
 * (`HOOK_SEND_SMS_*`): the hook gets the user and `sms: {otp, phone, sms_type?}` and sends the text
 * itself. It runs after the transaction has committed. A refusal rejects with the hook's failure.
 */
export function hookSmsSender(options: { readonly hooks: HookDispatcher }): SmsSender {
  return {
    async send(to, _body, context) {
      if (context === undefined) throw new Error("send-SMS hook: a text without its code and user");
      const answer = await options.hooks.run("send_sms", {
        user: context.user,
        sms: { otp: context.otp, phone: to, ...(context.smsType ? { sms_type: context.smsType } : {}) },
      });
      if (!answer.ok) throw answer.error;
      // The hook sends the text; there is no gateway message id.
      return { messageId: "" };
    },
  };
}
