import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveyManagerPage() {
  return <ScreenPlaceholder />;
}
