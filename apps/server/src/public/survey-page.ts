import type { Answers, AnswerValue, SurveyQuestion } from '@admin/shared/surveys/questions';
import type { PageLink } from '../reputation/amplify/invite.ts';
import { type Brand, brandColorOf, type Html, html, page } from './html.ts';
import type { Invitation } from './repository.ts';

export const DEFAULT_CONSENT_TEXT = 'You may quote my comment, with my first name, on your website and in your marketing.';

export function brandOf(invitation: Invitation | undefined): Brand {
  const logo = invitation?.logoUrl ?? null;
  return {
    color: brandColorOf(invitation?.brandColor ?? null),
    // Only a plain web address becomes an image (anything else shows the name instead).
    logoUrl: logo && /^https?:\/\//i.test(logo) ? logo : null,
    name: invitation?.clientName ?? 'Survey',
  };
}

/** The key metric first, then the others in the survey's order. */
export function orderedQuestions(questions: readonly SurveyQuestion[]): SurveyQuestion[] {
  return [...questions.filter((q) => q.is_key_metric), ...questions.filter((q) => !q.is_key_metric)];
}

/**
 * A form post as answers: `q<id>` fields, scores as numbers, yes/no as booleans, several choices as
 * a list. What cannot be read is kept as typed, so `answerProblems` names it and the page shows it.
 */
export function answersFromForm(questions: readonly SurveyQuestion[], form: Record<string, string | string[]>): Answers {
  const answers: Answers = {};
  for (const q of questions) {
    const raw = form[`q${q.id}`];
    if (raw === undefined) continue;
    const values = Array.isArray(raw) ? raw : [raw];
    const first = values[0] ?? '';
    let value: AnswerValue;
    switch (q.type) {
      case 'nps_0_10':
      case 'rating_1_5':
        value = /^\d{1,2}$/.test(first) ? Number(first) : first;
        break;
      case 'yes_no':
        value = first === 'yes' ? true : first === 'no' ? false : first;
        break;
      case 'multi_choice':
        value = values;
        break;
      default:
        value = first;
    }
    answers[String(q.id)] = value;
  }
  return answers;
}

function scale(q: SurveyQuestion, from: number, to: number, value: AnswerValue | undefined, low: string, high: string): Html {
  const options = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  return html`<div class="scale">${options.map(
    (n) =>
      html`<label><input type="radio" name="q${q.id}" value="${n}"${value === n ? html` checked` : ''}${q.required ? html` required` : ''}><span>${n}</span></label>`,
  )}</div><div class="ends" aria-hidden="true"><span>${low}</span><span>${high}</span></div>`;
}

function questionInput(q: SurveyQuestion, value: AnswerValue | undefined): Html {
  switch (q.type) {
    case 'nps_0_10':
      return scale(q, 0, 10, value, '0 – Not at all likely', '10 – Extremely likely');
    case 'rating_1_5':
      return scale(q, 1, 5, value, '1 – Poor', '5 – Excellent');
    case 'yes_no':
      return html`<div class="choice">${[
        ['yes', 'Yes', true],
        ['no', 'No', false],
      ].map(
        ([v, label, b]) =>
          html`<label><input type="radio" name="q${q.id}" value="${String(v)}"${value === b ? html` checked` : ''}${q.required ? html` required` : ''}> ${String(label)}</label>`,
      )}</div>`;
    case 'single_choice':
      return html`<div class="choice">${q.options.map(
        (o) =>
          html`<label><input type="radio" name="q${q.id}" value="${o}"${value === o ? html` checked` : ''}${q.required ? html` required` : ''}> ${o}</label>`,
      )}</div>`;
    case 'multi_choice':
      return html`<div class="choice">${q.options.map(
        (o) =>
          html`<label><input type="checkbox" name="q${q.id}" value="${o}"${Array.isArray(value) && value.includes(o) ? html` checked` : ''}> ${o}</label>`,
      )}</div>`;
    case 'text':
      return html`<textarea id="q${q.id}-text" name="q${q.id}" maxlength="5000"${q.required ? html` required` : ''}>${typeof value === 'string' ? value : ''}</textarea>`;
  }
}

function question(q: SurveyQuestion, value: AnswerValue | undefined, problem: string | undefined): Html {
  const problemId = `q${q.id}-problem`;
  const legend = html`${q.text}${q.required ? html` <span class="req" aria-hidden="true">*</span><span class="sr">(required)</span>` : ''}`;
  const message = problem ? html`<p class="problem" id="${problemId}">${problem}</p>` : '';
  // A comment box is labelled by its own label; the others are groups named by their legend.
  if (q.type === 'text')
    return html`<fieldset><legend><label for="q${q.id}-text">${legend}</label></legend>${message}${questionInput(q, value)}</fieldset>`;
  return html`<fieldset${problem ? html` aria-describedby="${problemId}"` : ''}><legend>${legend}</legend>${message}${questionInput(q, value)}</fieldset>`;
}

export type FormState = { answers: Answers; problems: Record<string, string>; consent: boolean };

export function surveyPage(invitation: Invitation, action: string, state: FormState): string {
  const questions = orderedQuestions(invitation.questions);
  const count = Object.keys(state.problems).length;
  const summary =
    count > 0
      ? html`<div class="summary" role="alert"><strong>${count === 1 ? 'One answer needs' : `${count} answers need`} your attention.</strong></div>`
      : '';
  const hasComment = questions.some((q) => q.type === 'text');
  const consent = hasComment
    ? html`<fieldset><legend>Testimonial</legend><div class="choice"><label><input type="checkbox" name="testimonial_consent" value="yes"${state.consent ? html` checked` : ''}> ${invitation.testimonialConsentText ?? DEFAULT_CONSENT_TEXT}</label></div></fieldset>`
    : '';
  const body = html`<h1>${invitation.surveyName}</h1>
<p>Hi ${invitation.firstName}, thank you for choosing ${invitation.locationName ?? invitation.clientName}. Your answers help us do better.</p>
<p class="muted">Questions marked <span class="req">*</span> need an answer.</p>
${summary}
<form method="post" action="${action}" novalidate>
${questions.map((q) => question(q, state.answers[String(q.id)], state.problems[String(q.id)]))}
${consent}
<button type="submit">Send my answers</button>
</form>`;
  return page(invitation.surveyName, brandOf(invitation), body);
}

/**
 * Shown after a response, and on an answered link, with the review links the respondent is offered
 * (reputation/amplify/invite.ts `reviewLinksForPage`: each a `/r/{token}` that records the click).
 */
export function thankYouPage(invitation: Invitation, justAnswered: boolean, links: readonly PageLink[]): string {
  const where = invitation.locationName ?? invitation.clientName;
  const reviews =
    links.length > 0
      ? html`<h2>Would you share your experience?</h2>
<p>A review helps others find ${where}.</p>
<div class="links">${links.map((l) => html`<a class="button" href="${l.href}" rel="noopener noreferrer" target="_blank">Review us on ${l.label}</a>`)}</div>`
      : '';
  const body = justAnswered
    ? html`<h1>Thank you, ${invitation.firstName}!</h1><p>Your answers have been recorded.</p>${reviews}`
    : html`<h1>You have already answered this survey</h1><p>Thank you — we have your answers, and each link takes one response.</p>${reviews}`;
  return page('Thank you', brandOf(invitation), body);
}

export function expiredPage(invitation: Invitation): string {
  return page(
    'Link expired',
    brandOf(invitation),
    html`<h1>This survey link has expired</h1><p>Survey links work for a limited time, and this one is no longer open for answers. Thank you for your interest.</p>`,
  );
}

export function notFoundPage(): string {
  return page(
    'Survey not found',
    brandOf(undefined),
    html`<h1>We could not find this survey</h1><p>The link may be incomplete. Please open it again from the message you received, or copy the whole address.</p>`,
  );
}

/**
 * What a sample link opens (a survey's Preview, Survey Admin's test e-mail): it belongs to no
 * invitation, so the page says what the link does in a real one rather than "not found".
 */
export function samplePage(link: 'survey' | 'unsubscribe'): string {
  const opens = link === 'survey' ? 'the survey' : 'the page where the customer unsubscribes from survey messages';
  return page(
    'Sample link',
    brandOf(undefined),
    html`<h1>This is a sample link</h1><p>It comes from a preview or a test e-mail and belongs to no invitation. In a real invitation, this link opens ${opens}.</p>`,
  );
}

export function unsubscribePage(invitation: Invitation, action: string, done: boolean): string {
  const who = invitation.clientName;
  const body = done
    ? html`<h1>You are unsubscribed</h1><p>${who} will not send you survey messages any more.</p>`
    : html`<h1>Unsubscribe</h1><p>Stop survey messages from ${who}?</p><form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`;
  return page('Unsubscribe', brandOf(invitation), body);
}
