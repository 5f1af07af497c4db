import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from './dom.js';
import { renderText } from './text.js';

const text = (body: string): string => renderText(bodyOf(parseHtml(`<html><body>${body}</body></html>`)));

describe('renderText', () => {
  it('keeps the words of two inline boxes side by side apart', () => {
    expect(text(`<a href="/c/1"><span class="label">Actuators</span><span class="count">168</span></a>`)).toBe('Actuators 168');
    expect(text(`<div><span>Log In</span><span>Account &amp; Orders</span></div>`)).toBe('Log In Account & Orders');
  });

  it('joins text that runs into an element, and punctuation after a box', () => {
    expect(text(`<p><span class="dropcap">T</span>he mill was quiet.</p>`)).toBe('The mill was quiet.');
    expect(text(`<p>Only $549<sup>00</sup> today, see <a href="/x">the deal</a><span>.</span></p>`)).toBe('Only $54900 today, see the deal.');
  });
});
