import { describe, expect, it } from 'vitest';
import { answerProblems, keyScoreOf, npsClassOf, questionListProblems, type SurveyQuestion, surveyQuestionSchema } from './questions.ts';

const q = (over: Partial<SurveyQuestion> & Pick<SurveyQuestion, 'id' | 'type'>): SurveyQuestion =>
  surveyQuestionSchema.parse({ text: `Question ${over.id}`, ...over });
const nps = [
  q({ id: 1, type: 'nps_0_10', required: true, is_key_metric: true }),
  q({ id: 2, type: 'single_choice', options: ['Service', 'Price'] }),
  q({ id: 3, type: 'text' }),
];

describe('survey questions', () => {
  it('needs exactly one key metric of the survey type', () => {
    expect(questionListProblems('nps', nps)).toEqual([]);
    expect(questionListProblems('csat', nps)).toEqual(['The key metric of this survey must be a "Rating (1–5)" question']);
    expect(
      questionListProblems(
        'nps',
        nps.map((x) => ({ ...x, is_key_metric: false })),
      ),
    ).toEqual(['Mark exactly one question as the key metric']);
    expect(questionListProblems('custom', nps)).toEqual(['A custom survey has no key metric question']);
    expect(questionListProblems('nps', [])).toContain('A survey needs at least one question');
    expect(questionListProblems('custom', [q({ id: 1, type: 'multi_choice', options: ['One'] })])).toEqual([
      '"Question 1" needs at least two options',
    ]);
  });

  it('checks each answer against its question', () => {
    expect(answerProblems(nps, { '1': 9, '2': 'Service', '3': 'Great' })).toEqual({});
    expect(answerProblems(nps, {})).toEqual({ '1': 'Please answer this question' });
    expect(answerProblems(nps, { '1': 11, '2': 'Other', '9': 'x' })).toEqual({
      '1': 'Choose a score from 0 to 10',
      '2': 'Choose one of the options',
      '9': 'No such question',
    });
  });

  it('classes NPS scores at their boundaries and finds the key score', () => {
    expect([0, 6, 7, 8, 9, 10].map(npsClassOf)).toEqual(['detractor', 'detractor', 'passive', 'passive', 'promoter', 'promoter']);
    expect(keyScoreOf(nps, { '1': 8 })).toEqual({ score: 8, npsClass: 'passive' });
    expect(keyScoreOf(nps, { '3': 'no score' })).toBeNull();
  });
});
