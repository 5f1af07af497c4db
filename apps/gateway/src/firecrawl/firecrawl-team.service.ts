/** Firecrawl's team reads where Trawl has the figure: the credits left in the period, the plan's, the period's bounds. */
import { Injectable } from '@nestjs/common';
import type { Caller } from '#billing';
import { ErrorCode, TrawlError } from '#contracts';
import { AccountsRepository } from '#db';

export interface CreditUsage {
  remainingCredits: number;
  planCredits: number;
  billingPeriodStart: string;
  billingPeriodEnd: string;
}

@Injectable()
export class FirecrawlTeamService {
  constructor(private readonly accounts: AccountsRepository) {}

  async creditUsage(caller: Caller): Promise<{ success: true; data: CreditUsage }> {
    const account = await this.accounts.view(caller.accountId);
    if (!account) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Invalid token');
    return {
      success: true,
      data: {
        remainingCredits: account.balance,
        planCredits: account.plan.monthlyCredits,
        billingPeriodStart: account.periodStart.toISOString(),
        billingPeriodEnd: account.periodEnd.toISOString(),
      },
    };
  }

}
